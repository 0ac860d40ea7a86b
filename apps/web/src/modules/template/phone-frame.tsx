import { useEffect, useRef } from 'react';
import { Box, Stack, Text } from '@mantine/core';
import { renderPhotoEmail, previewUrl, type Colors, type Screenshot } from '@stadiumcam/contract';

const PHONE = { width: 390, height: 844 };

/** The sample the e-mail preview shows (the real template, the unsaved colours). */
function emailHtml(colors: Colors, headerImageUrl?: string): string {
  const photo =
    "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='800' height='600'><rect width='800' height='600' fill='%232d5f8f'/><circle cx='300' cy='300' r='80' fill='%23f1c27d'/><circle cx='500' cy='310' r='75' fill='%23f1c27d'/></svg>";
  return renderPhotoEmail({
    colors: colors.emailSettings,
    headerImageUrl: headerImageUrl ? new URL(headerImageUrl, location.origin).toString() : undefined,
    title: 'StadiumCam',
    heading: 'Here is your photo!',
    body: 'Thanks for joining us at the game. Your photo is ready.',
    button: 'Open my photo',
    photos: [photo],
  }).html;
}

/**
 * One attendee-app screen in a phone frame, live with the unsaved colours (DESIGN §10): the real
 * app in preview mode, told the colours by message; `email` renders the real e-mail template.
 */
export function PhoneFrame({
  shot,
  slugDate,
  colors,
  scale = 0.42,
  logoUrl,
}: {
  shot: Screenshot;
  slugDate: string;
  colors: Colors;
  scale?: number;
  logoUrl?: string;
}) {
  const ref = useRef<HTMLIFrameElement>(null);
  const send = () =>
    ref.current?.contentWindow?.postMessage(
      { type: 'stadiumcam:colors', theme: colors.theme, iconColor: colors.iconColor },
      location.origin,
    );
  useEffect(send);
  // The app says when it listens (its load event may come before its listener).
  useEffect(() => {
    const onReady = (e: MessageEvent<{ type?: string }>) => {
      if (e.source === ref.current?.contentWindow && e.data?.type === 'stadiumcam:ready') send();
    };
    window.addEventListener('message', onReady);
    return () => window.removeEventListener('message', onReady);
  });
  const isEmail = shot.screen === 'email';
  return (
    <Stack gap={4} align="center" data-testid={`preview-${shot.screen}`}>
      <Box
        w={PHONE.width * scale + 12}
        h={PHONE.height * scale + 12}
        p={6}
        style={{ borderRadius: 24, background: '#111', overflow: 'hidden', flex: 'none' }}
      >
        <iframe
          ref={ref}
          title={shot.title}
          src={isEmail ? undefined : previewUrl(slugDate, shot.screen)}
          srcDoc={isEmail ? emailHtml(colors, logoUrl) : undefined}
          onLoad={send}
          sandbox={isEmail ? '' : undefined}
          style={{
            width: PHONE.width,
            height: PHONE.height,
            border: 0,
            borderRadius: 18,
            background: '#fff',
            transform: `scale(${scale})`,
            transformOrigin: '0 0',
          }}
        />
      </Box>
      <Text size="xs" c="dimmed">
        {shot.title}
      </Text>
    </Stack>
  );
}
