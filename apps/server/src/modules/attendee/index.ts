/** The attendee area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerAttendee } from './attendee.module.ts';
export { type AttendeeFeed, createAttendeeFeed } from './attendee.feed.ts';
