import { useEffect, useState } from 'react';
import { Button, Center, Group, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconX } from '@tabler/icons-react';
import { MSG, PROMO_TYPES, type Promo, type PromoInput, type PromoType } from '@stadiumcam/contract';
import { useEvent, useUpdateEvent } from './events.hooks.ts';
import { PROMO_FORMAT as FORMAT, dayjs, parsePromoStart } from './event-time.ts';

const NEW = 'new';
/** How long the submit/delete buttons show their check or cross (spec 2 §4). */
const RESULT_ICON_MS = 2_000;

type Result = { action: 'submit' | 'delete'; ok: boolean } | null;

/** The promotion modal (spec 2 §2): pick a promotion or 'New', its type and start time. */
export function PromotionModal({
  opened,
  onClose,
  slugDate,
  timezone,
}: {
  opened: boolean;
  onClose: () => void;
  slugDate: string;
  timezone: string;
}) {
  const event = useEvent(opened ? slugDate : undefined);
  const update = useUpdateEvent();
  const [chosen, setChosen] = useState<string>(NEW);
  const [result, setResult] = useState<Result>(null);
  const [busy, setBusy] = useState<'submit' | 'delete' | null>(null);
  const form = useForm({
    initialValues: { type: PROMO_TYPES[0] as PromoType, start: '' },
    validate: { start: (v) => (parsePromoStart(v, timezone) ? null : MSG.events.timeNotValid) },
  });

  const promos = [...(event.data?.promo ?? [])].sort((a, b) => a.start.localeCompare(b.start));
  const local = (p: Promo) => dayjs(p.start).tz(timezone).format(FORMAT);

  useEffect(() => {
    if (!result) return;
    const t = setTimeout(() => setResult(null), RESULT_ICON_MS);
    return () => clearTimeout(t);
  }, [result]);

  const handleChoose = (value: string | null) => {
    const id = value ?? NEW;
    setChosen(id);
    const p = promos.find((x) => x._id === id);
    form.setValues(p ? { type: p.type, start: local(p) } : { type: PROMO_TYPES[0], start: '' });
    form.clearErrors();
  };

  const save = (list: PromoInput[], action: 'submit' | 'delete', after: (saved: Promo[]) => void) => {
    setBusy(action);
    update.mutate(
      { slugDate, data: { promo: list } },
      {
        onSuccess: (saved) => {
          setResult({ action, ok: true });
          after(saved.promo);
        },
        onSettled: () => setBusy(null),
        onError: () => {
          setResult({ action, ok: false });
        },
      },
    );
  };

  const handleSubmit = form.onSubmit(({ type, start }) => {
    const iso = parsePromoStart(start, timezone) ?? '';
    const known = new Set(promos.map((p) => p._id));
    const list: PromoInput[] =
      chosen === NEW
        ? [...promos, { type, start: iso }]
        : promos.map((p) => (p._id === chosen ? { _id: p._id, type, start: iso } : p));
    save(list, 'submit', (saved) => {
      // Keep the submitted promotion chosen, so a second submit edits it instead of adding another.
      const added = saved.find((p) => !known.has(p._id));
      if (added) setChosen(added._id);
    });
  });

  const handleDelete = () => {
    save(
      promos.filter((p) => p._id !== chosen),
      'delete',
      () => handleChoose(NEW),
    );
  };

  const icon = (action: 'submit' | 'delete') =>
    result?.action === action ? result.ok ? <IconCheck size={16} /> : <IconX size={16} /> : undefined;

  return (
    <Modal opened={opened} onClose={onClose} title="Promotion" centered data-testid="promotion-modal">
      {event.isPending ? (
        <Center h={120}>
          <Loader />
        </Center>
      ) : (
        <form onSubmit={handleSubmit}>
          <Stack>
            <Select
              label="Promotion"
              data={[
                { value: NEW, label: 'New' },
                ...promos.map((p) => ({ value: p._id, label: `${local(p)} · ${p.type}` })),
              ]}
              value={chosen}
              onChange={handleChoose}
              allowDeselect={false}
            />
            <Select label="Type" data={[...PROMO_TYPES]} allowDeselect={false} {...form.getInputProps('type')} />
            <TextInput
              label="Start time"
              description={`yyyy-mm-dd hh:mm, ${timezone}`}
              placeholder="yyyy-mm-dd hh:mm"
              {...form.getInputProps('start')}
            />
            <Group justify="flex-end">
              {chosen !== NEW && (
                <Button
                  color="red"
                  variant="light"
                  onClick={handleDelete}
                  loading={busy === 'delete'}
                  rightSection={icon('delete')}
                  data-testid="promo-delete"
                >
                  Delete
                </Button>
              )}
              <Button
                type="submit"
                loading={busy === 'submit'}
                rightSection={icon('submit')}
                data-testid="promo-submit"
              >
                Submit
              </Button>
            </Group>
            {result && (
              <Text size="sm" c={result.ok ? 'green' : 'red'} ta="right">
                {result.action === 'submit'
                  ? result.ok
                    ? MSG.events.promoSubmitted
                    : MSG.events.promoSubmitFailed
                  : result.ok
                    ? MSG.events.promoDeleted
                    : MSG.events.promoDeleteFailed}
              </Text>
            )}
          </Stack>
        </form>
      )}
    </Modal>
  );
}
