import { useMemo, useState } from 'react';
import {
  Accordion,
  Alert,
  Button,
  ColorInput,
  FileButton,
  Group,
  Modal,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload, IconEye, IconUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import {
  COLORS_MSG,
  DEFAULT_COLORS,
  EMAIL_COLOR_KEYS,
  HEX_COLOR,
  ICON_COLOR_KEYS,
  MSG,
  PREVIEW_GROUPS,
  PREVIEW_SCREENS,
  THEME_KEYS,
  templateRoutes,
  type Colors,
} from '@stadiumcam/contract';
import { api } from '../../ui/api.ts';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { importColorsFile } from './colors-import.ts';
import { contrastWarnings } from './colour-contrast.ts';
import { PhoneFrame } from './phone-frame.tsx';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

type Field =
  { group: 'theme' | 'iconColor' | 'emailSettings'; key: string } | { group: 'slideshowColor'; key: 'slideshowColor' };
const f = (group: 'theme' | 'iconColor' | 'emailSettings', keys: readonly string[]): Field[] =>
  keys.map((key) => ({ group, key }));
const THEME = (keys: (typeof THEME_KEYS)[number][]) => f('theme', keys);

/** The five collapsible groups (spec 2 §2) holding every field of the Colours entity. */
const GROUPS: { label: string; fields: Field[] }[] = [
  {
    label: 'Background',
    fields: [
      ...THEME([
        'backgroundColor',
        'primaryColor',
        'secondaryColor',
        'activeColor',
        'shimmerBaseColor',
        'shimmerAccentColor',
      ]),
      { group: 'slideshowColor', key: 'slideshowColor' },
    ],
  },
  {
    label: 'Buttons',
    fields: THEME([
      'downloadButtonColor',
      'emailButtonColor',
      'webShareButtonColor',
      'ptzControlButtonColor',
      'ptzControlIconColor',
      'cameraButtonColor',
      'cameraIconColor',
    ]),
  },
  { label: 'Text', fields: THEME(['mainTextColor', 'primaryTextColor', 'secondaryTextColor', 'activeTextColor']) },
  { label: 'Graphics', fields: f('iconColor', ICON_COLOR_KEYS) },
  { label: 'Email', fields: f('emailSettings', EMAIL_COLOR_KEYS) },
];

const label = (key: string) => {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words[0].toUpperCase() + words.slice(1);
};
const read = (c: Colors, field: Field) =>
  field.group === 'slideshowColor' ? c.slideshowColor : (c[field.group] as Record<string, string>)[field.key];
/** Hex typed without its '#' gains one (spec 2 §5). */
const withHash = (v: string) => (/^[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(v.trim()) ? `#${v.trim()}` : v.trim());

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Colours page (spec 2 §2 Colours): groups, import/export, live previews of the real app, Update Event. */
export function ColorsPage() {
  const part = useTemplatePart('colors');
  return <ColorsEditor key={part.key} part={part} />;
}

function ColorsEditor({ part }: { part: ReturnType<typeof useTemplatePart<'colors'>> }) {
  const stored = part.value?.colors;
  const [colors, setColors] = useState<Colors>(() => ({
    theme: { ...DEFAULT_COLORS.theme, ...stored?.theme },
    iconColor: { ...DEFAULT_COLORS.iconColor, ...stored?.iconColor },
    emailSettings: { ...DEFAULT_COLORS.emailSettings, ...stored?.emailSettings },
    slideshowColor: stored?.slideshowColor ?? DEFAULT_COLORS.slideshowColor,
  }));
  const [group, setGroup] = useState<string>(PREVIEW_GROUPS[0]);
  const [all, setAll] = useState(false);
  const saveColors = useSavePart('colors', { quiet: true });
  const saveShots = useSavePart('screenshots', { quiet: true });
  const slugDate = part.first?.slugDate ?? 'stadiumcam';
  const logoUrl = (part.event.data?.images as Record<string, string> | undefined)?.logoUrl;
  const invalid = GROUPS.some((g) => g.fields.some((fl) => !HEX_COLOR.test(read(colors, fl))));
  const lowContrast = useMemo(() => contrastWarnings(colors), [colors]);

  const set = (field: Field, value: string) =>
    setColors((c) =>
      field.group === 'slideshowColor'
        ? { ...c, slideshowColor: value }
        : { ...c, [field.group]: { ...c[field.group], [field.key]: value } },
    );

  const preview = useMutation({
    mutationFn: async () =>
      api(templateRoutes.screenshotsPreview, {
        // The spec's payload: the three colour groups, not slideshowColor (no app screen shows it).
        body: {
          hash: await sha256(JSON.stringify(colors)),
          screenshots: PREVIEW_SCREENS,
          slugDate,
          theme: colors.theme,
          iconColor: colors.iconColor,
          emailSettings: colors.emailSettings,
        },
      }),
    onSuccess: () => setAll(true),
    onError: () => showErrorModal(),
  });

  const handleImport = async (file: File | null) => {
    if (!file) return;
    const result = await importColorsFile(file, colors);
    if (!result.ok) return showErrorModal(result.error);
    setColors(result.colors);
    showSuccessModal(COLORS_MSG.imported);
  };

  const handleExport = () => {
    const blob = new Blob([JSON.stringify({ colors }, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${slugDate}-colors.json`;
    a.click();
    URL.revokeObjectURL(a.href);
  };

  // Colours first, then the screenshots list made with them (spec 2 §4).
  const handleUpdate = async () => {
    try {
      await saveColors.mutateAsync({ colors });
      await saveShots.mutateAsync({ hash: await sha256(JSON.stringify(colors)), screenshots: PREVIEW_SCREENS });
      showSuccessModal(MSG.template.eventSuccessfullyUpdated);
    } catch {
      /* useSavePart showed the error */
    }
  };

  const frames = useMemo(() => PREVIEW_SCREENS.filter((s) => s.group === group), [group]);

  return (
    <TemplatePage
      title="Colors"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={() => void handleUpdate()}
      saving={saveColors.isPending || saveShots.isPending}
      actions={
        <>
          <FileButton onChange={(file) => void handleImport(file)} accept="application/json,.json">
            {(props) => (
              <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
                Import
              </Button>
            )}
          </FileButton>
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={handleExport}>
            Export
          </Button>
          <Button
            variant="default"
            leftSection={<IconEye size={16} />}
            onClick={() => preview.mutate()}
            loading={preview.isPending}
          >
            Preview all
          </Button>
        </>
      }
    >
      {lowContrast.length > 0 && (
        <Alert color="yellow" mb="md" title={MSG.templateColors.contrastTitle} data-testid="contrast-warning">
          <Stack gap={2}>
            {lowContrast.map((w) => (
              <Text size="sm" key={`${w.text}/${w.background}`}>
                {MSG.templateColors.contrastPair(label(w.text), label(w.background).toLowerCase(), w.ratio.toFixed(1))}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <Accordion multiple defaultValue={['Background']} variant="separated" style={{ flex: '0 0 420px' }}>
          {GROUPS.map((g) => (
            <Accordion.Item key={g.label} value={g.label}>
              <Accordion.Control>{g.label}</Accordion.Control>
              <Accordion.Panel>
                <SimpleGrid cols={2} spacing="xs">
                  {g.fields.map((fl) => {
                    const value = read(colors, fl);
                    return (
                      <ColorInput
                        key={`${fl.group}.${fl.key}`}
                        label={label(fl.key)}
                        size="xs"
                        format="hex"
                        value={value}
                        onChange={(v) => set(fl, withHash(v))}
                        error={HEX_COLOR.test(value) ? undefined : 'Invalid colour'}
                        data-testid={`color-${fl.key}`}
                      />
                    );
                  })}
                </SimpleGrid>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        <Stack gap="sm" style={{ flex: 1, minWidth: 0 }}>
          <SegmentedControl size="xs" data={[...PREVIEW_GROUPS]} value={group} onChange={setGroup} />
          <ScrollArea type="auto" offsetScrollbars>
            <Group gap="md" wrap="nowrap" align="flex-start">
              {frames.map((s) => (
                <PhoneFrame
                  key={`${s.group}-${s.screen}`}
                  shot={s}
                  slugDate={slugDate}
                  colors={colors}
                  logoUrl={logoUrl}
                />
              ))}
            </Group>
          </ScrollArea>
          {invalid && (
            <Text c="red" size="sm">
              Every colour needs # and 3 or 6 hex digits.
            </Text>
          )}
        </Stack>
      </Group>
      <Modal opened={all} onClose={() => setAll(false)} fullScreen title={<Title order={4}>Preview all</Title>}>
        <Stack>
          {PREVIEW_GROUPS.map((g) => (
            <Stack key={g} gap={6}>
              <Text fw={600}>{g}</Text>
              <Group gap="md">
                {PREVIEW_SCREENS.filter((s) => s.group === g).map((s) => (
                  <PhoneFrame
                    key={s.screen}
                    shot={s}
                    slugDate={slugDate}
                    colors={colors}
                    scale={0.34}
                    logoUrl={logoUrl}
                  />
                ))}
              </Group>
            </Stack>
          ))}
        </Stack>
      </Modal>
    </TemplatePage>
  );
}
