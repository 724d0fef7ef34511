// Test-only entry ('@leadrelay/connectors/testing'): it imports vitest, so runtime code never imports it.

export { type HttpEmulator, type HttpEmulatorOptions, startHttpEmulator } from './http/emulator';
export {
  type ContractEmulator,
  type ContractFault,
  type ContractSetup,
  describeConnectorContract,
  SAMPLE_LEAD,
} from './kit/contract';
export { type MemoryAuthStore, memoryAuthStore } from './kit/memory-auth';
