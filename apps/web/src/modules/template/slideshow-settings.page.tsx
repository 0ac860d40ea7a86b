import { Anchor, ColorInput, Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconExternalLink } from '@tabler/icons-react';
import {
  LONG_SUCCESS_MODAL_MS,
  MSG,
  SLIDESHOW_DEFAULTS,
  SLIDESHOW_DURATIONS_MS,
  SLIDESHOW_EASINGS,
  SLIDESHOW_INTERVALS_MS,
  type SlideshowSettings,
} from '@stadiumcam/contract';
import { showSuccessModal } from '../../ui/feedback.tsx';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

const required = (v: unknown) => (v === '' || v === null || v === undefined ? MSG.templateParts.fieldRequired : null);

/** Form values: the selects hold strings. */
type Values = { transitionTime: string; transitionDuration: string; animation: string; backgroundColor: string };

/** Slideshow settings (spec 2 Slideshow, §5, §9): four required fields and a link to /slideshow. */
export function SlideshowSettingsPage() {
  const part = useTemplatePart('slideshow');
  return <SlideshowEditor key={part.key} part={part} />;
}

function SlideshowEditor({ part }: { part: ReturnType<typeof useTemplatePart<'slideshow'>> }) {
  const stored: Partial<SlideshowSettings> = part.value?.slideshow ?? {};
  const start = { ...SLIDESHOW_DEFAULTS, ...stored };
  const form = useForm<Values>({
    initialValues: {
      transitionTime: String(start.transitionTime),
      transitionDuration: String(start.transitionDuration),
      animation: start.animation,
      backgroundColor: start.backgroundColor,
    },
    validate: {
      transitionTime: required,
      transitionDuration: required,
      animation: required,
      backgroundColor: (v) =>
        required(v) ?? (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(v) ? null : 'Enter a colour like #ffffff'),
    },
  });
  const save = useSavePart('slideshow', { quiet: true });

  const handleUpdate = form.onSubmit((v) =>
    save.mutate(
      {
        slideshow: {
          ...stored,
          transitionTime: Number(v.transitionTime),
          transitionDuration: Number(v.transitionDuration),
          animation: v.animation as SlideshowSettings['animation'],
          backgroundColor: v.backgroundColor,
        },
      },
      // The slideshow's success stays 5 s (DESIGN §6).
      { onSuccess: () => showSuccessModal(MSG.template.eventSuccessfullyUpdated, { ms: LONG_SUCCESS_MODAL_MS }) },
    ),
  );

  return (
    <TemplatePage
      title="Slideshow"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={() => handleUpdate()}
      saving={save.isPending}
    >
      <Paper withBorder p="md" radius="md" maw={760}>
        <Stack gap="md" data-testid="slideshow-settings">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Play interval"
              description="How long each photo stays"
              withAsterisk
              data={SLIDESHOW_INTERVALS_MS.map((ms) => ({ value: String(ms), label: `${ms / 1000} s` }))}
              {...form.getInputProps('transitionTime')}
            />
            <Select
              label="Slide duration"
              description="How long the change of photo takes"
              withAsterisk
              data={SLIDESHOW_DURATIONS_MS.map((ms) => ({ value: String(ms), label: `${ms} ms` }))}
              {...form.getInputProps('transitionDuration')}
            />
            <Select
              label="Transition"
              withAsterisk
              data={[...SLIDESHOW_EASINGS]}
              {...form.getInputProps('animation')}
            />
            <ColorInput label="Background color" withAsterisk format="hex" {...form.getInputProps('backgroundColor')} />
          </SimpleGrid>
          <Group gap={6}>
            <Text size="sm">The venue screens show the event&apos;s favourite photos at</Text>
            <Anchor href="/slideshow" target="_blank" rel="noreferrer" size="sm" data-testid="slideshow-link">
              /slideshow <IconExternalLink size={12} />
            </Anchor>
          </Group>
        </Stack>
      </Paper>
    </TemplatePage>
  );
}
