import { z } from 'zod';
import { defineRoute } from './route.ts';
import { P } from './permissions.ts';

/** The pre-live checklist's items (issue 32 §2), in the order the dialog lists them. */
export const CHECKLIST_KEYS = [
  'cameras',
  'coverage',
  'graphics',
  'share',
  'geofence',
  'language',
  'trivia',
  'photos',
] as const;
export type ChecklistKey = (typeof CHECKLIST_KEYS)[number];

export const CHECK_STATES = ['pass', 'warn', 'fail'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

export const ChecklistItemSchema = z.object({
  key: z.enum(CHECKLIST_KEYS),
  label: z.string(),
  state: z.enum(CHECK_STATES),
  /** One line: why it passes, warns or fails. */
  reason: z.string(),
  /** The console path of the screen that fixes it (`/monitor`, `/template/share`, ...). */
  link: z.string(),
});
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

export const ChecklistSchema = z.object({
  slugDate: z.string(),
  /** ISO instant the server computed it. */
  checkedAt: z.string(),
  items: z.array(ChecklistItemSchema),
});
export type Checklist = z.infer<typeof ChecklistSchema>;

export const checklistRoutes = {
  /**
   * The pre-live checklist of a dated event, computed now from the venue's state. 404 for an
   * unknown event, 422 for the master template (it never goes live). Reads only. Whoever may set
   * an event live may read it: Event:write or the power button (as `PUT /api/events`' status).
   */
  get: defineRoute({
    method: 'GET',
    path: '/api/events/:slugDate/checklist',
    permission: [P.EVENT_WRITE, P.POWER_BTN],
    or: true,
    params: z.object({ slugDate: z.string().min(1).max(100) }),
    response: ChecklistSchema,
  }),
};
