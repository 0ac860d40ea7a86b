import { defaultEventConfig, type EventConfig } from '@stadiumcam/contract';

/** The configuration a fresh master template starts with (the contract's, spec 2 §3 defaults). */
export const defaultTemplateConfig = (): EventConfig => defaultEventConfig();
