import { useState } from 'react';
import {
  Button,
  Checkbox,
  FileButton,
  Group,
  List,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Papa from 'papaparse';
import { IconDownload, IconFileImport, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  MSG,
  TRIVIA_CSV_COLUMNS,
  TriviaQuestionSchema,
  buildPath,
  triviaId,
  triviaRoutes,
  type TriviaQuestion,
} from '@stadiumcam/contract';
import { ApiError, api, errorText } from '../../ui/api.ts';
import { confirm, showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

const MAX_CSV_BYTES = 1024 * 1024;

/**
 * Spec 2 §5 Trivia CSV: a header row naming the four columns, empty lines skipped, every row
 * checked like a new question; errors carry the row number + 2 (the header, and counting from 1).
 */
export function parseTriviaCsv(text: string): { questions: TriviaQuestion[]; errors: string[] } {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const errors = parsed.errors.map((e) => MSG.templateParts.triviaCsvRow((e.row ?? 0) + 2, e.message));
  const fields = parsed.meta.fields ?? [];
  if (!TRIVIA_CSV_COLUMNS.every((c) => fields.includes(c)))
    return { questions: [], errors: [MSG.templateParts.triviaCsvColumns] };
  const questions: TriviaQuestion[] = [];
  parsed.data.forEach((row, i) => {
    const q = {
      _id: triviaId(row.question ?? ''),
      question: row.question ?? '',
      answer1: row.answer1 ?? '',
      answer2: row.answer2 ?? '',
      correctAnswer: Number(String(row.correctAnswer ?? '').trim()),
    };
    const ok = TriviaQuestionSchema.safeParse(q);
    if (ok.success) questions.push(ok.data);
    else
      errors.push(
        ...ok.error.issues.map((is) =>
          MSG.templateParts.triviaCsvRow(i + 2, `${String(is.path[0] ?? '')}: ${is.message}`),
        ),
      );
  });
  if (!questions.length && !errors.length) errors.push(MSG.templateParts.triviaCsvEmpty);
  return { questions, errors };
}

function showList(title: string, lines: string[]) {
  modals.open({
    title,
    centered: true,
    closeButtonProps: { 'aria-label': 'Close' },
    'data-testid': 'error-modal',
    children: (
      <List size="sm">
        {lines.slice(0, 50).map((l, i) => (
          <List.Item key={i}>{l}</List.Item>
        ))}
      </List>
    ),
  } as Parameters<typeof modals.open>[0]);
}

/**
 * Trivia (spec 2 Trivia, §4, §5, §7): enable switch, language toggle, the question table with
 * Add new and Delete, CSV import and export. Questions are saved at once to every selected
 * event; 'Update Event' saves the switch.
 */
export function TriviaPage() {
  const part = useTemplatePart('trivia');
  return <TriviaEditor key={part.key} part={part} />;
}

function TriviaEditor({ part }: { part: ReturnType<typeof useTemplatePart<'trivia'>> }) {
  const qc = useQueryClient();
  const languages = part.event.data?.availableLanguages ?? [];
  const [language, setLanguage] = useState<string | null>(languages[0] ?? null);
  const [enabled, setEnabled] = useState(part.value?.triviaEnabled === true);
  const [selected, setSelected] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const save = useSavePart('trivia');
  const slugDate = part.first?.slugDate ?? '';
  const lang = language ?? languages[0] ?? '';
  const key = ['trivia', slugDate, lang];
  const questions = useQuery({
    queryKey: key,
    queryFn: () => api(triviaRoutes.questions, { params: { slugDate, language: lang } }),
    enabled: !!slugDate && !!lang,
  });

  const add = useMutation({
    mutationFn: (list: TriviaQuestion[]) =>
      api(triviaRoutes.add, {
        params: { language: lang },
        body: { language: lang, eventIds: part.eventIds, questions: list },
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['trivia'] }),
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) =>
      api(triviaRoutes.remove, { body: { questionIds: ids, eventIds: part.eventIds, language: lang } }),
    onSuccess: () => setSelected([]),
    onError: (err) => showErrorModal(errorText(err, MSG.common.genericError)),
    onSettled: () => qc.invalidateQueries({ queryKey: ['trivia'] }),
  });

  const handleCsv = async (file: File | null) => {
    if (!file) return;
    const csv = file.type === 'text/csv' || file.name.toLowerCase().endsWith('.csv');
    if (!csv) return showErrorModal(MSG.templateParts.triviaWrongFileType);
    if (file.size > MAX_CSV_BYTES) return showErrorModal(MSG.template.csvTooLarge);
    const { questions: list, errors } = parseTriviaCsv(await file.text());
    if (errors.length) return showList(MSG.common.oopsTitle, errors);
    add.mutate(list, {
      onSuccess: (a) => showSuccessModal(MSG.templateParts.triviaImported(a.saved)),
      onError: (err) => showErrorModal(errorText(err, MSG.common.genericError)),
    });
  };
  const handleDelete = async () => {
    if (
      await confirm({ title: 'Delete', text: MSG.templateParts.deleteQuestionsConfirm(selected.length), danger: true })
    )
      remove.mutate(selected);
  };

  const rows = questions.data ?? [];
  return (
    <TemplatePage
      title="Trivia"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={() => save.mutate({ triviaEnabled: enabled })}
      saving={save.isPending}
      actions={
        <>
          <FileButton onChange={(f) => void handleCsv(f)} accept=".csv,text/csv">
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconFileImport size={16} />} loading={add.isPending}>
                Add from CSV
              </Button>
            )}
          </FileButton>
          <Button
            component="a"
            variant="default"
            leftSection={<IconDownload size={16} />}
            href={buildPath(triviaRoutes.csv.path, { slugDate, language: lang })}
            download
          >
            Export to CSV
          </Button>
        </>
      }
    >
      <Stack gap="sm" maw={1100}>
        <Group justify="space-between">
          <Switch
            label={enabled ? MSG.templateParts.triviaEnabled : MSG.templateParts.triviaDisabled}
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
            data-testid="trivia-enabled"
          />
          {languages.length > 0 && (
            <SegmentedControl
              data={languages.map((l) => ({ value: l, label: l[0].toUpperCase() + l.slice(1) }))}
              value={lang}
              onChange={(l) => {
                setSelected([]);
                setLanguage(l);
              }}
              aria-label="Language"
            />
          )}
        </Group>
        <Group gap="xs">
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
            Add new
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} />}
            disabled={!selected.length}
            loading={remove.isPending}
            onClick={() => void handleDelete()}
          >
            Delete
          </Button>
        </Group>
        <Paper withBorder radius="md">
          <Table striped data-testid="trivia-questions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all"
                    checked={!!rows.length && selected.length === rows.length}
                    onChange={(e) => setSelected(e.currentTarget.checked ? rows.map((q) => q._id) : [])}
                  />
                </Table.Th>
                <Table.Th>Question</Table.Th>
                <Table.Th>Answer 1</Table.Th>
                <Table.Th>Answer 2</Table.Th>
                <Table.Th>Correct</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(questions.isError || questions.isPending || !rows.length) && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text size="sm" ta="center" c={questions.isError ? 'red' : 'dimmed'}>
                      {questions.isError
                        ? MSG.templateParts.triviaFetchFailed
                        : questions.isPending && !!lang
                          ? 'Loading…'
                          : MSG.templateParts.triviaNoQuestions}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {rows.map((q) => (
                <Table.Tr key={q._id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${q.question}`}
                      checked={selected.includes(q._id)}
                      onChange={(e) =>
                        setSelected((s) => (e.currentTarget.checked ? [...s, q._id] : s.filter((id) => id !== q._id)))
                      }
                    />
                  </Table.Td>
                  <Table.Td>{q.question}</Table.Td>
                  <Table.Td>{q.answer1}</Table.Td>
                  <Table.Td>{q.answer2}</Table.Td>
                  <Table.Td>{q.correctAnswer}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      </Stack>
      {adding && (
        <AddQuestionModal
          onClose={() => setAdding(false)}
          onSave={(q, done) =>
            add.mutate([q], {
              onSuccess: () => setAdding(false),
              onError: (err) =>
                done(err instanceof ApiError && err.body?.error ? err.body.error : MSG.common.genericError),
            })
          }
          saving={add.isPending}
        />
      )}
    </TemplatePage>
  );
}

type Values = { question: string; answer1: string; answer2: string; correctAnswer: string | null };
const required = (v: string | null) => (v && v.trim() ? null : MSG.templateParts.fieldRequired);

/** 'Add New Question': every field required, correctAnswer 1 or 2; a save's error is shown in it. */
function AddQuestionModal({
  onClose,
  onSave,
  saving,
}: {
  onClose: () => void;
  onSave: (q: TriviaQuestion, onError: (text: string) => void) => void;
  saving: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: { question: '', answer1: '', answer2: '', correctAnswer: null },
    validate: { question: required, answer1: required, answer2: required, correctAnswer: required },
  });
  const handleSubmit = form.onSubmit((v) => {
    setError(null);
    onSave(
      {
        _id: triviaId(v.question),
        question: v.question.trim(),
        answer1: v.answer1.trim(),
        answer2: v.answer2.trim(),
        correctAnswer: Number(v.correctAnswer) as 1 | 2,
      },
      setError,
    );
  });
  return (
    <Modal opened onClose={onClose} title="Add New Question" centered>
      <form onSubmit={handleSubmit} noValidate data-testid="question-form">
        <Stack gap="sm">
          <TextInput label="Question" withAsterisk maxLength={500} {...form.getInputProps('question')} />
          <TextInput label="Answer 1" withAsterisk maxLength={500} {...form.getInputProps('answer1')} />
          <TextInput label="Answer 2" withAsterisk maxLength={500} {...form.getInputProps('answer2')} />
          <Select label="Correct answer" withAsterisk data={['1', '2']} {...form.getInputProps('correctAnswer')} />
          {error && (
            <Text c="red" size="sm" data-testid="question-error">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
