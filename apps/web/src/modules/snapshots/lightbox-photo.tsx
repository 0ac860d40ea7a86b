import { useState } from 'react';
import { Box, Loader } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { Face } from '@stadiumcam/contract';

/** Where an image of natural size nw×nh lands inside a w×h frame with object-fit: contain. */
function containedRect(w: number, h: number, nw: number, nh: number) {
  if (!w || !h || !nw || !nh) return null;
  const scale = Math.min(w / nw, h / nh);
  const width = nw * scale;
  const height = nh * scale;
  return { left: (w - width) / 2, top: (h - height) / 2, width, height };
}

/** The large photo or video; face boxes on top while the vision card is open (spec 1 §2). */
export function LightboxPhoto({ src, video, faces }: { src: string; video: boolean; faces: Face[] | undefined }) {
  const { ref, width, height } = useElementSize();
  const [natural, setNatural] = useState<{ src: string; w: number; h: number } | null>(null);
  const loaded = natural?.src === src;
  const rect = loaded ? containedRect(width, height, natural.w, natural.h) : null;

  return (
    <Box ref={ref} pos="relative" style={{ flex: 1, minHeight: 0 }} data-testid="lightbox-photo">
      {video ? (
        <video
          key={src}
          src={src}
          controls
          autoPlay
          muted
          playsInline
          style={{ width: '100%', height: '100%', objectFit: 'contain', background: 'black' }}
          data-testid="lightbox-video"
        />
      ) : (
        <>
          {!loaded && <Loader pos="absolute" top="50%" left="50%" style={{ transform: 'translate(-50%,-50%)' }} />}
          <img
            key={src}
            src={src}
            alt="Selected photo"
            onLoad={(e) => setNatural({ src, w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
            style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
          />
        </>
      )}
      {rect && faces && faces.length > 0 && (
        <Box pos="absolute" style={{ ...rect, pointerEvents: 'none' }}>
          {faces.map((f, i) => (
            <Box
              key={i}
              data-testid="face-box"
              pos="absolute"
              style={{
                left: `${f.BoundingBox.Left * 100}%`,
                top: `${f.BoundingBox.Top * 100}%`,
                width: `${f.BoundingBox.Width * 100}%`,
                height: `${f.BoundingBox.Height * 100}%`,
                border: '2px solid var(--mantine-color-yellow-5)',
                borderRadius: 4,
                boxShadow: '0 0 0 1px rgba(0,0,0,.6)',
              }}
            >
              <Box
                pos="absolute"
                top={-18}
                left={-2}
                px={4}
                fz={11}
                fw={700}
                c="dark.9"
                bg="yellow.5"
                style={{ borderRadius: 3, lineHeight: '16px' }}
              >
                {i + 1}
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
