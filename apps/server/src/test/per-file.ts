// Run before each test file. The files of a worker share one module graph (isolate: false in
// vitest.config.ts): what the connectors keep per process, keyed by an emulator's origin, is
// forgotten after each file, since the next file's emulator may get a port this one freed.
import { clearSendpulseTokenCache, resetPipedriveState } from '@leadrelay/connectors/testing';
import { afterAll } from 'vitest';
import { setPasswordCostForTests } from '../lib/password-hash';

// scrypt at 1/16 of the real cost: a run hashes some 450 passwords, 72 ms of CPU each at the real one.
setPasswordCostForTests(1_024);

afterAll(() => {
  resetPipedriveState();
  clearSendpulseTokenCache();
});
