/**
 * Every text the attendee app (and the photo e-mail) shows: the rows of the template's
 * language table (spec 2 §3 Language row). The English defaults here are the template's
 * initial table; an event's own text for the fan's language wins. `{name}` placeholders are
 * filled by the app. `html` rows may hold a few tags (a, b, i, strong, em, br) and have no
 * maxLength; the app sanitises them before showing.
 */
export type AttendeeTextDef = { description: string; maxLength: number; english: string; html?: true };

const t = (english: string, description: string, maxLength = 60): AttendeeTextDef => ({
  english,
  description,
  maxLength,
});
const html = (english: string, description: string): AttendeeTextDef => ({
  english,
  description,
  maxLength: HTML_TEXT_MAX,
  html: true,
});

/** Upper bound of an html row (the table's maxLength does not apply to html rows). */
export const HTML_TEXT_MAX = 2000;

export const ATTENDEE_TEXTS = {
  'meta.title': t('StadiumCam', 'Browser tab title and installed app name', 40),
  'meta.description': t('Your photo from your seat, on the big camera.', 'Search and link preview description', 160),
  'common.loading': t('Loading…', 'Shown while something loads', 30),
  'common.error': t('Something went wrong, please try again.', 'Generic error', 100),
  'common.back': t('Back', 'Back button', 20),
  'common.offline': t('You are offline. Waiting for the network…', 'Shown when the phone has no network', 80),
  'landing.title': t('Smile, you are on camera!', 'Front page heading', 60),
  'landing.subtitle': t(
    'Take a photo from your seat with the stadium camera and share it.',
    'Front page line under the heading',
    140,
  ),
  'landing.language': t('Language', 'Label of the language choice', 30),
  'landing.start': t('Start', 'Front page button', 24),
  'landing.legal': html(
    'By continuing you agree that your photo may be shown in the venue.',
    'Small print on the front page (html)',
  ),
  'landing.noEvent': t('There is no event right now. Come back on game day!', 'No event is running', 100),
  'seat.title': t('Where are you sitting?', 'Seat form heading', 60),
  'seat.type': t('Seat type', 'Seat type choice label', 30),
  'seat.section': t('Section', 'Section field label', 30),
  'seat.row': t('Row', 'Row field label', 30),
  'seat.seat': t('Seat', 'Seat field label', 30),
  'seat.submit': t('Join the queue', 'Seat form button', 30),
  'seat.required': t('Please fill in every field.', 'Seat form: a field is empty', 80),
  'seat.blocked': t('This seat cannot use the camera, please try a different one.', 'Seat form: a blocked seat', 100),
  'seat.unreadable': t(
    'Please enter the seat as your ticket shows it: section, row and seat number.',
    'Seat form: a section, row or seat the venue cannot read (e.g. 17.0)',
    100,
  ),
  'seat.notCovered': t(
    'No camera can see this seat yet, please check the section, row and seat.',
    'Seat form: a seat no camera covers',
    100,
  ),
  'seatType.section': t('Section', 'Seat type: section', 30),
  'seatType.stand': t('Stand', 'Seat type: stand', 30),
  'seatType.box': t('Box', 'Seat type: box', 30),
  'seatType.suite': t('Suite', 'Seat type: suite', 30),
  'seatType.custom_type_1': t('Custom 1', 'Seat type: custom type 1', 30),
  'seatType.custom_type_2': t('Custom 2', 'Seat type: custom type 2', 30),
  'seatType.custom_type_3': t('Custom 3', 'Seat type: custom type 3', 30),
  'queue.title': t('You are in the queue', 'Queue heading', 60),
  'queue.position': t('Your place in the queue: {position}', 'Queue position line ({position})', 80),
  'queue.camera': t('Camera: {camera}', 'Which camera takes the photo ({camera})', 60),
  'queue.next': t('Get ready, you are next!', 'Queue: next after the fan being photographed', 60),
  'queue.live': t('Look at camera {camera} now!', "Queue: the fan's turn ({camera}: the camera's number or name)", 60),
  'queue.timeLeft': t('{time} left', "Queue: the turn's countdown ({time}, as 0:12)", 30),
  'queue.smile': t('Smile! Your photo is being taken.', 'Queue: the turn is over, the photo comes', 60),
  'queue.hint': t('Look at the camera and smile when your turn comes.', 'Queue help line', 120),
  'queue.full': t(
    'This camera has a long queue right now, please try again in a few minutes.',
    'Seat form: the camera for this seat has a full queue',
    100,
  ),
  'queue.noCamera': t('No camera is available right now, please try again soon.', 'Queue: no camera on', 100),
  'queue.changeSeat': t('Change seat', 'Queue: back to the seat form', 30),
  'geofence.checking': t('Checking that you are at the venue…', 'Geofence: asking for the position', 80),
  'geofence.denied': t('Please allow your location to join the queue.', 'Geofence: no position given', 100),
  'geofence.outside': t('You need to be at the venue to use the camera.', 'Geofence: position outside', 100),
  'trivia.title': t('Trivia while you wait', 'Trivia heading (queue screen)', 40),
  'trivia.right': t('Correct!', 'Trivia: right answer', 40),
  'trivia.wrong': t('Not quite!', 'Trivia: wrong answer', 40),
  'trivia.next': t('Next question', 'Trivia: next question button', 30),
  'photo.title': t('Your photo', 'Photo heading', 40),
  'photo.waiting': t('Your photo is on its way…', 'Photo: waiting for it', 60),
  'photo.overlays': t('Choose a frame', 'Overlay choice heading', 40),
  'photo.noOverlay': t('No frame', 'Overlay choice: none', 24),
  'photo.frame': t('Frame {number}', "Overlay choice: a frame's name for screen readers ({number})", 30),
  'photo.alt': t(
    'Your photo at {time}, section {section}, row {row}, seat {seat}',
    'Photo description for screen readers ({time}, {section}, {row}, {seat})',
    120,
  ),
  'photo.share': t('Share', 'Photo: go to share', 24),
  'photo.again': t('Take another', 'Photo: join the queue again', 30),
  'share.title': t('Share your photo', 'Share heading', 40),
  'share.download': t('Download', 'Share: download button', 24),
  'share.email': t('E-mail', 'Share: e-mail button', 24),
  'share.share': t('Share', 'Share: share button (Web Share)', 24),
  'share.shareLevel2': t('More apps', 'Share: second share button', 24),
  'share.print': t('Print', 'Share: print button', 24),
  'share.emailLabel': t('Your e-mail address', 'Share: e-mail field', 40),
  'share.emailSend': t('Send', 'Share: send e-mail button', 20),
  'share.emailSent': t('Sent! Check your inbox.', 'Share: e-mail sent', 60),
  'share.failed': t('Could not share, please try again.', 'Share: failed', 80),
  'album.title': t('My photos', 'Album heading and menu entry', 30),
  'album.empty': t('No photos yet.', 'Album: no photos', 60),
  'email.subject': t('Your photo from {event}', 'Photo e-mail subject ({event})', 100),
  'email.heading': t('Here is your photo!', 'Photo e-mail heading', 60),
  'email.body': t('Thanks for joining us at {event}. Your photo is ready.', 'Photo e-mail text ({event})', 300),
  'email.button': t('Open my photo', 'Photo e-mail button', 30),
} satisfies Record<string, AttendeeTextDef>;

export type AttendeeTextKey = keyof typeof ATTENDEE_TEXTS;
export const ATTENDEE_TEXT_KEYS = Object.keys(ATTENDEE_TEXTS) as AttendeeTextKey[];

/** Fills `{name}` placeholders. */
export function fillText(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
