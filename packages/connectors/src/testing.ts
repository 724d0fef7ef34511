// Test-only entry ('@leadrelay/connectors/testing'): it imports vitest, so runtime code never imports it.

export {
  ALPHASMS_EMULATOR_KEY,
  ALPHASMS_SENDERS,
  type AlphaEmulator,
  type AlphaEmulatorOptions,
  type AlphaFault,
  type EmulatedSms,
  startAlphaSmsEmulator,
} from './alfasms/emulator';
export { setAmoWaitsForTests } from './amocrm/client';
export {
  AMO_SEED,
  type AmoEmulator,
  type AmoEmulatorOptions,
  type AmoFault,
  startAmoEmulator,
} from './amocrm/emulator';
export {
  DEFAULT_APP_ID as GRAPH_EMULATOR_APP_ID,
  DEFAULT_APP_SECRET as GRAPH_EMULATOR_APP_SECRET,
  GRAPH_SEED,
  GRAPH_VERSION,
  type GraphEmulatedRequest,
  type GraphEmulator,
  type GraphEmulatorOptions,
  type SubmitLeadInput,
  startGraphEmulator,
  type ThrottleCode,
  type WebhookDelivery,
} from './facebook/emulator';
export {
  GA_EMULATOR_STREAM,
  type GaEmulator,
  type GaEmulatorOptions,
  type GaFault,
  startGaEmulator,
} from './ga/emulator';
export { type HttpEmulator, type HttpEmulatorOptions, startHttpEmulator } from './http/emulator';
export {
  type ContractEmulator,
  type ContractFault,
  type ContractSetup,
  describeConnectorContract,
  SAMPLE_LEAD,
} from './kit/contract';
export { type MemoryAuthStore, memoryAuthStore } from './kit/memory-auth';
export { resetPipedriveState } from './pipedrive';
export {
  type EmulatedCall as PipedriveEmulatedCall,
  PIPEDRIVE_SEED,
  type PipedriveEmulator,
  type PipedriveEmulatorOptions,
  type PipedriveFault,
  startPipedriveEmulator,
} from './pipedrive/emulator';
export { clearTokenCache as clearSendpulseTokenCache } from './sendpulse/client';
export {
  defaultSendpulseSeed,
  SENDPULSE_BOT,
  SENDPULSE_CLIENT,
  SENDPULSE_WHATSAPP_BOT,
  type SendpulseEmulator,
  type SendpulseEmulatorOptions,
  type SendpulseFault,
  type SendpulseSeed,
  startSendpulseEmulator,
} from './sendpulse/emulator';
export {
  startUspacyEmulator,
  USPACY_DEMO_ACCOUNT,
  USPACY_DEMO_WEBHOOK_KEY,
  USPACY_SEED,
  type UspacyEmulatedCall,
  type UspacyEmulator,
  type UspacyEmulatorOptions,
  type UspacyFault,
} from './uspacy/emulator';
