/** The template area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerTemplate } from './template.module.ts';
export { type EventConfigWriter, eventConfigWriter, writeTemplateOverlaysIfEmpty } from './event-config.service.ts';
export { toPublicTemplate } from './public-event.ts';
export { publicQuestions } from './trivia.service.ts';
export { SERVER_PARTS } from './server-parts.ts';
export { checkPart } from './template.service.ts';
