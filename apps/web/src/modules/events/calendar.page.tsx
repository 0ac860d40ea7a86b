import { useMemo, useState, type MouseEvent } from 'react';
import { ActionIcon, Button, Group, Loader, Menu, Text, Title, UnstyledButton } from '@mantine/core';
import {
  IconChartBar,
  IconChevronLeft,
  IconChevronRight,
  IconPalette,
  IconPencil,
  IconPhoto,
  IconPlus,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { DEFAULT_SLUG, DEFAULT_TIMEZONE, MSG, P, type EventStatus } from '@stadiumcam/contract';
import { showErrorModal } from '../../ui/feedback.tsx';
import { isShiftHeld } from '../../ui/shift-key.ts';
import { useCan } from '../auth/session.hooks.ts';
import classes from './calendar.module.css';
import { DeleteEventModal } from './delete-event.modal.tsx';
import { EventFormModal, type EventFormTarget } from './event-form.modal.tsx';
import { GoLiveModal } from './go-live.modal.tsx';
import { toSelected, useEventList, type EventItem } from './events.hooks.ts';
import { dayjs, formatDate, timeRange, todayIn } from './event-time.ts';
import { STATUS_COLOR } from './status-dot.tsx';
import { setSelectedEvents } from './selection.store.ts';

/** Legend of the calendar: an event's colour follows its status. */
export const LEGEND: { status: EventStatus; label: string; color: string }[] = [
  { status: 'post', label: 'Past', color: STATUS_COLOR.post },
  { status: 'live', label: 'Live', color: STATUS_COLOR.live },
  { status: 'pre', label: 'Upcoming', color: STATUS_COLOR.pre },
];
const colorOf = (s: EventStatus) => LEGEND.find((l) => l.status === s)?.color;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The days shown for a month: whole weeks, Sunday first. */
function monthDays(month: string): string[] {
  const first = dayjs(`${month}-01`);
  const start = first.subtract(first.day(), 'day');
  const last = first.endOf('month');
  const end = last.add(6 - last.day(), 'day');
  const days: string[] = [];
  for (let d = start; !d.isAfter(end, 'day'); d = d.add(1, 'day')) days.push(d.format('YYYY-MM-DD'));
  return days;
}

function daysBetween(a: string, b: string): string[] {
  const [from, to] = a < b ? [a, b] : [b, a];
  const days: string[] = [];
  for (let d = dayjs(from); d.format('YYYY-MM-DD') <= to; d = d.add(1, 'day')) days.push(d.format('YYYY-MM-DD'));
  return days;
}

/** The calendar page (spec 1 §2): a month of events; clicking days selects them for a new event. */
export function CalendarPage() {
  const list = useEventList();
  const canCreate = useCan([P.EVENT_WRITE, P.DAY_CLICK_CREATE_EVENT]);
  const template = list.data?.find((e) => e.template);
  const tz = template?.timezone || DEFAULT_TIMEZONE;
  const today = todayIn(tz);
  const [month, setMonth] = useState(today.slice(0, 7));
  const [slots, setSlots] = useState<string[]>([]);
  const [anchor, setAnchor] = useState<string | null>(null);
  const [formTarget, setFormTarget] = useState<EventFormTarget | null>(null);
  const [deleting, setDeleting] = useState<EventItem | null>(null);
  const [goingLive, setGoingLive] = useState<EventItem | null>(null);

  const byDay = useMemo(() => {
    const map = new Map<string, EventItem[]>();
    for (const e of list.data ?? []) {
      if (e.template || !e.gameDate) continue;
      map.set(e.gameDate, [...(map.get(e.gameDate) ?? []), e]);
    }
    return map;
  }, [list.data]);

  const days = monthDays(month);
  const shift = (n: number) => setMonth(dayjs(`${month}-01`).add(n, 'month').format('YYYY-MM'));

  const handleDay = (day: string, ev: MouseEvent) => {
    if (!canCreate) return;
    if (slots.includes(day) && !ev.shiftKey) {
      setSlots(slots.filter((d) => d !== day));
      setAnchor(null);
      return;
    }
    const range = (ev.shiftKey || isShiftHeld()) && anchor ? daysBetween(anchor, day) : [day];
    if (range.some((d) => d < today)) return void showErrorModal(MSG.events.eventInPast);
    if (range.some((d) => byDay.has(d))) return void showErrorModal(MSG.events.eventDayTaken);
    setSlots([...new Set([...slots, ...range])].sort());
    setAnchor(day);
  };

  // Created days leave the selection and the open form; failed ones stay for another try.
  const handleCreated = (created: string[]) => {
    setSlots((s) => s.filter((d) => !created.includes(d)));
    setFormTarget((t) =>
      t?.formMode === 'create' ? { ...t, selectedSlots: t.selectedSlots.filter((d) => !created.includes(d)) } : t,
    );
  };

  return (
    <div className={classes.page} data-testid="calendar">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <Button variant="default" onClick={() => setMonth(today.slice(0, 7))}>
            Today
          </Button>
          <ActionIcon variant="default" size="lg" aria-label="Previous month" onClick={() => shift(-1)}>
            <IconChevronLeft size={18} />
          </ActionIcon>
          <ActionIcon variant="default" size="lg" aria-label="Next month" onClick={() => shift(1)}>
            <IconChevronRight size={18} />
          </ActionIcon>
          <Title order={3} ml="xs" data-testid="calendar-month" style={{ whiteSpace: 'nowrap' }}>
            {dayjs(`${month}-01`).format('MMMM YYYY')}
          </Title>
          {list.isFetching && <Loader size="xs" />}
        </Group>
        <Group gap="md" wrap="nowrap">
          {canCreate &&
            (slots.length ? (
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {`${slots.length} day${slots.length > 1 ? 's' : ''} selected`}
                </Text>
                <Button variant="subtle" onClick={() => setSlots([])}>
                  Clear
                </Button>
                <Button
                  leftSection={<IconPlus size={16} />}
                  onClick={() =>
                    setFormTarget({
                      formMode: 'create',
                      selectedSlots: slots,
                      slug: template?.slug || DEFAULT_SLUG,
                      timezone: tz,
                    })
                  }
                >
                  Create event
                </Button>
              </Group>
            ) : (
              <Text size="sm" c="dimmed" visibleFrom="lg">
                Click days to plan an event; Shift-click selects a range.
              </Text>
            ))}
          <Group gap="sm" wrap="nowrap" data-testid="calendar-legend">
            {LEGEND.map((l) => (
              <Group key={l.status} gap={6} wrap="nowrap">
                <span
                  className={classes.dot}
                  style={{ ['--card-color' as string]: l.color }}
                  data-testid={`legend-${l.status}`}
                />
                <Text size="sm">{l.label}</Text>
              </Group>
            ))}
          </Group>
        </Group>
      </Group>

      {list.isError && <Text c="red">{MSG.events.eventsFetchFailed}</Text>}

      <div className={classes.grid} style={{ gridTemplateRows: `auto repeat(${days.length / 7}, minmax(0, 1fr))` }}>
        {WEEKDAYS.map((w) => (
          <div key={w} className={classes.weekday}>
            {w}
          </div>
        ))}
        {days.map((day) => (
          <div
            key={day}
            className={classes.day}
            data-date={day}
            data-outside={day.slice(0, 7) !== month || undefined}
            data-past={day < today || undefined}
            data-today={day === today || undefined}
            data-selected={slots.includes(day) || undefined}
            data-clickable={canCreate || undefined}
            onClick={(ev) => handleDay(day, ev)}
          >
            {/* The day's own button (its click reaches the day's handler): a day holding event
                cards must not be a button itself, and a keyboard chooses days with it too. */}
            {canCreate ? (
              <button
                type="button"
                className={classes.number}
                data-day-number
                aria-label={dayjs(day).format('D MMMM YYYY, dddd')}
                aria-pressed={slots.includes(day)}
              >
                {dayjs(day).date()}
              </button>
            ) : (
              <span className={classes.number} data-day-number>
                {dayjs(day).date()}
              </span>
            )}
            <div className={classes.events}>
              {(byDay.get(day) ?? []).map((e) => (
                <EventCard
                  key={e.slugDate}
                  event={e}
                  onEdit={() => setFormTarget({ formMode: 'update', event: e })}
                  onDelete={() => setDeleting(e)}
                  onGoLive={() => setGoingLive(e)}
                />
              ))}
            </div>
          </div>
        ))}
      </div>

      <EventFormModal target={formTarget} onClose={() => setFormTarget(null)} onCreated={handleCreated} />
      <DeleteEventModal event={deleting} onClose={() => setDeleting(null)} />
      <GoLiveModal target={goingLive} onClose={() => setGoingLive(null)} />
    </div>
  );
}

/** An event on its day, with its action menu (spec 1 §2: items by status and permission). */
function EventCard({
  event,
  onEdit,
  onDelete,
  onGoLive,
}: {
  event: EventItem;
  onEdit: () => void;
  onDelete: () => void;
  onGoLive: () => void;
}) {
  const navigate = useNavigate();
  const canEdit = useCan(P.EDIT_EVENT);
  const canDelete = useCan(P.DELETE_EVENT);
  const canTemplate = useCan(P.TEMPLATE);
  const canAnalytics = useCan(P.ANALYTICS_READ);
  // The server's rule for a status change (docs/events.md).
  const canSetStatus = useCan([P.EVENT_WRITE, P.POWER_BTN], { or: true });
  const s = event.eventStatus;

  // Choosing any item also makes this event the app-wide selection.
  const pick = (then: () => void) => () => {
    setSelectedEvents([toSelected(event)]);
    then();
  };
  const items = [
    s === 'pre' && canSetStatus && { label: 'Go live', icon: IconPlayerPlay, onClick: pick(onGoLive) },
    s !== 'post' && canEdit && { label: 'Edit', icon: IconPencil, onClick: pick(onEdit) },
    s !== 'post' &&
      canTemplate && { label: 'Template', icon: IconPalette, onClick: pick(() => void navigate('/template/colors')) },
    s !== 'pre' && { label: 'Album', icon: IconPhoto, onClick: pick(() => void navigate('/album')) },
    s !== 'pre' &&
      canAnalytics && { label: 'Analytics', icon: IconChartBar, onClick: pick(() => void navigate('/analytics')) },
    s !== 'live' && canDelete && { label: 'Delete', icon: IconTrash, onClick: pick(onDelete), color: 'red' },
  ].filter((i) => !!i);

  return (
    <Menu position="bottom-start" withinPortal shadow="md" width={180}>
      <Menu.Target>
        <UnstyledButton
          className={classes.card}
          style={{ ['--card-color' as string]: colorOf(s) }}
          title={`${event.title} · ${timeRange(event)}`}
          data-testid="event-card"
          data-slugdate={event.slugDate}
          data-status={s}
          onClick={(ev) => ev.stopPropagation()}
        >
          <Text size="sm" fw={600} truncate>
            {event.title}
          </Text>
          {/* The whole range stays readable in a narrow day (1280 px with the menu open): it wraps
              after the dash rather than losing the end time, its (+1) or the zone's label. */}
          <Text size="xs" className={classes.cardTime} data-testid="event-card-time">
            {timeRange(event)
              .replace(/ (?=\S+$)/, '\u00a0')
              .replace(' (+1)', '\u00a0(+1)')}
          </Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown onClick={(ev) => ev.stopPropagation()}>
        <Menu.Label>{event.gameDate ? formatDate(event.gameDate) : event.title}</Menu.Label>
        {items.length ? (
          items.map((i) => (
            <Menu.Item key={i.label} leftSection={<i.icon size={16} />} color={i.color} onClick={i.onClick}>
              {i.label}
            </Menu.Item>
          ))
        ) : (
          <Menu.Item disabled>No actions</Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
