import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  FileButton,
  Group,
  List,
  Modal,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconDownload, IconPlus, IconUpload, IconX } from '@tabler/icons-react';
import {
  ATTENDEE_TEXT_KEYS,
  LANGUAGE_CHOICES,
  LanguageNameSchema,
  MSG,
  languageCode,
  languageCodeName,
  defaultLanguageTable,
  type LanguagesPart,
} from '@stadiumcam/contract';
import { showSuccessModal } from '../../ui/feedback.tsx';
import { languagesToCsv, parseLanguagesCsv } from './languages-csv.ts';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

const DUPLICATE = MSG.template.duplicateLanguage;
/** A language as the screens name it: 'French (fr)' for a code, 'French' for a former table's 'french'. */
const cap = (l: string) => (languageCode(l) === l ? `${languageCodeName(l)} (${l})` : l[0].toUpperCase() + l.slice(1));

/** Why a language cannot be removed (spec 2 §4): the only one, or the default; null if it can. */
const notRemovable = (l: string, languages: string[], defaultLanguage: string) =>
  languages.length <= 1
    ? MSG.template.onlyLanguageNotRemovable
    : l === defaultLanguage
      ? MSG.template.defaultLanguageNotRemovable
      : null;

/** The stored table with every key of the app (rows added by a newer app show its English). */
function complete(part: Partial<LanguagesPart> | undefined): LanguagesPart {
  const defaults = defaultLanguageTable();
  const stored = part?.languages ?? {};
  return {
    languages: Object.fromEntries(ATTENDEE_TEXT_KEYS.map((k) => [k, stored[k] ?? defaults[k]])),
    availableLanguages: part?.availableLanguages?.length ? part.availableLanguages : ['english'],
    defaultLanguage: part?.defaultLanguage ?? 'english',
  };
}

/** Text Settings (spec 2 §2): one row per text, one column per language, edited in place. */
export function LanguagesPage() {
  const part = useTemplatePart('languages');
  return <LanguagesEditor key={part.key} part={part} />;
}

function LanguagesEditor({ part }: { part: ReturnType<typeof useTemplatePart<'languages'>> }) {
  const [saved] = useState(() => complete(part.value));
  const [draft, setDraft] = useState(saved);
  const [editing, setEditing] = useState<{ key: string; language: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const [importErrors, setImportErrors] = useState<string[]>([]);
  const save = useSavePart('languages', { quiet: true });
  const slugDate = part.first?.slugDate ?? 'stadiumcam';
  const langs = draft.availableLanguages;

  const setText = (key: string, language: string, text: string) =>
    setDraft((d) => ({
      ...d,
      languages: {
        ...d.languages,
        [key]: { ...d.languages[key], texts: { ...d.languages[key].texts, [language]: text } },
      },
    }));

  const removeLanguage = (l: string) =>
    setDraft((d) => ({ ...d, availableLanguages: d.availableLanguages.filter((x) => x !== l) }));

  const handleUpdate = async () => {
    try {
      const answer = await save.mutateAsync(draft);
      // The answer must hold all three fields (spec 2 §7); otherwise it is only logged.
      if (!answer?.languages || !answer.availableLanguages || !answer.defaultLanguage) {
        console.error(MSG.template.unexpectedApiResponse, answer);
        return;
      }
      showSuccessModal(MSG.template.eventSuccessfullyUpdated);
    } catch {
      /* useSavePart showed the error; the table keeps the edits */
    }
  };

  const handleImport = async (file: File | null) => {
    if (!file) return;
    const text = file.size > 1024 * 1024 ? '' : await file.text().catch(() => '');
    const result = parseLanguagesCsv(file, text, draft);
    if (!result.ok) {
      setImportErrors(result.errors);
      return;
    }
    setImportErrors([]);
    setDraft(result.part);
    const notes = [
      result.added.length ? `Added: ${result.added.join(', ')}.` : '',
      result.deleted.length ? `Deleted: ${result.deleted.join(', ')}.` : '',
    ].filter(Boolean);
    // 1.5 s like every success popup but camera-config and slideshow (DESIGN §6).
    showSuccessModal([MSG.template.importSuccessful, ...notes].join(' '));
  };

  const handleExport = () => {
    const blob = new Blob([`\uFEFF${languagesToCsv(draft)}`], { type: 'text/csv' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${slugDate}-languages.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  };

  return (
    <TemplatePage
      title="Text Settings"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={() => void handleUpdate()}
      saving={save.isPending}
      actions={
        <>
          <Select
            aria-label="Default language"
            size="sm"
            w={160}
            data={langs.map((l) => ({ value: l, label: `Default: ${cap(l)}` }))}
            value={draft.defaultLanguage}
            onChange={(v) => v && setDraft((d) => ({ ...d, defaultLanguage: v }))}
            allowDeselect={false}
          />
          <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Language
          </Button>
          <FileButton onChange={(f) => void handleImport(f)} accept=".csv,text/csv">
            {(props) => (
              <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
                Import
              </Button>
            )}
          </FileButton>
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={handleExport}>
            Export
          </Button>
        </>
      }
    >
      {importErrors.length > 0 && (
        <Box mb="sm" p="sm" bg="var(--mantine-color-red-light)" style={{ borderRadius: 8 }} data-testid="import-errors">
          <List size="sm" c="red">
            {importErrors.slice(0, 50).map((e) => (
              <List.Item key={e}>{e}</List.Item>
            ))}
          </List>
        </Box>
      )}
      <Group gap="xs" mb="xs">
        <Badge color="yellow" variant="light">
          modified
        </Badge>
        <Badge color="red" variant="light">
          empty
        </Badge>
        <Text size="xs" c="dimmed">
          Double-click a cell to edit it; the change is kept when you leave the cell and saved with Update Event.
        </Text>
      </Group>
      <ScrollArea
        h="calc(100vh - 230px)"
        type="auto"
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': MSG.a11y.scrollRegion('Texts') }}
      >
        <Table stickyHeader withColumnBorders verticalSpacing={4} data-testid="languages-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={260}>Text</Table.Th>
              {langs.map((l) => {
                const why = notRemovable(l, langs, draft.defaultLanguage);
                return (
                  <Table.Th key={l} miw={220}>
                    <Group justify="space-between" wrap="nowrap">
                      <Text fw={600} size="sm">
                        {cap(l)}
                      </Text>
                      <Tooltip label={why ?? `Remove ${cap(l)}`}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          size="sm"
                          aria-label={`Remove ${cap(l)}`}
                          disabled={!!why}
                          onClick={() => removeLanguage(l)}
                        >
                          <IconX size={14} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Object.entries(draft.languages).map(([key, row]) => (
              <Table.Tr key={key} data-key={key}>
                <Table.Td>
                  <Text size="sm">{row.description}</Text>
                  <Text size="xs" c="dimmed">
                    {key} · {row.html ? 'html' : `max ${row.maxLength}`}
                  </Text>
                </Table.Td>
                {langs.map((l) => {
                  const text = row.texts[l] ?? '';
                  const before = saved.languages[key]?.texts[l] ?? '';
                  const state = !text
                    ? 'empty'
                    : text !== before || !saved.availableLanguages.includes(l)
                      ? 'modified'
                      : '';
                  const isEditing = editing?.key === key && editing.language === l;
                  return (
                    <Table.Td
                      key={l}
                      data-lang={l}
                      data-state={state}
                      onDoubleClick={() => setEditing({ key, language: l })}
                      bg={
                        state === 'empty'
                          ? 'var(--mantine-color-red-light)'
                          : state === 'modified'
                            ? 'var(--mantine-color-yellow-light)'
                            : undefined
                      }
                      style={{ cursor: 'text', verticalAlign: 'top' }}
                    >
                      {isEditing ? (
                        <Textarea
                          autoFocus
                          autosize
                          minRows={1}
                          defaultValue={text}
                          maxLength={row.html ? undefined : row.maxLength}
                          aria-label={`${key} ${l}`}
                          onBlur={(e) => {
                            setText(key, l, e.currentTarget.value);
                            setEditing(null);
                          }}
                          onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
                        />
                      ) : (
                        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                          {text}
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <AddLanguageModal
        opened={adding}
        existing={langs}
        defaultLanguage={draft.defaultLanguage}
        onClose={() => setAdding(false)}
        onAdd={(l) => setDraft((d) => ({ ...d, availableLanguages: [...d.availableLanguages, l] }))}
        onRemove={removeLanguage}
      />
    </TemplatePage>
  );
}

/** The Languages modal (spec 2 §2): the language list with its removals, and the add-language input. */
function AddLanguageModal({
  opened,
  existing,
  defaultLanguage,
  onClose,
  onAdd,
  onRemove,
}: {
  opened: boolean;
  existing: string[];
  defaultLanguage: string;
  onClose: () => void;
  onAdd: (l: string) => void;
  onRemove: (l: string) => void;
}) {
  const [value, setValue] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setValue(null);
    setError(null);
    onClose();
  };
  // A language already there, by its code ('fr' and a former 'french' are one language).
  const have = new Set(existing.map((l) => languageCode(l) ?? l));
  const handleAdd = () => {
    if (!value) return setError(MSG.template.pickLanguage);
    const parsed = LanguageNameSchema.safeParse(value);
    if (!parsed.success) return setError(parsed.error.issues[0].message);
    if (have.has(parsed.data)) return setError(DUPLICATE);
    onAdd(parsed.data);
    setValue(null);
    setError(null);
  };
  return (
    <Modal opened={opened} onClose={close} title="Languages" centered>
      <Stack>
        <Stack gap={4} data-testid="language-list">
          {existing.map((l) => {
            const why = notRemovable(l, existing, defaultLanguage);
            return (
              <Group key={l} justify="space-between" wrap="nowrap" data-language={l}>
                <Text size="sm" fw={500}>
                  {cap(l)}
                  {l === defaultLanguage && (
                    <Badge ml="xs" size="xs" variant="light">
                      default
                    </Badge>
                  )}
                </Text>
                {why ? (
                  <Text size="xs" c="dimmed">
                    {why}
                  </Text>
                ) : (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconX size={12} />}
                    onClick={() => onRemove(l)}
                  >
                    Remove
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
        <Group align="flex-start" wrap="nowrap">
          <Select
            style={{ flex: 1 }}
            label="Language"
            placeholder="Search by name or code"
            required
            searchable
            data-autofocus
            nothingFoundMessage="No such language"
            data={LANGUAGE_CHOICES.filter((c) => !have.has(c.value))}
            value={value}
            error={error}
            onChange={(v) => {
              setValue(v);
              setError(null);
            }}
          />
          <Button mt={25} onClick={handleAdd}>
            Add
          </Button>
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
