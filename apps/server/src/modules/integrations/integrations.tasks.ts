// What the integrations keep tidy (periodic tasks its door hands to the app).
import type { FastifyBaseLogger } from 'fastify';
import type { PeriodicTask } from '../../delivery/periodic';
import { resealStoredAuth } from '../../delivery/stored-auth';
import type { SecretBox } from '../../lib/secret-box';

export const integrationTasks = (secrets: SecretBox, log: FastifyBaseLogger): PeriodicTask[] => [
  // Plaintext rows from before encryption, and rows sealed with ENCRYPTION_KEY_PREVIOUS.
  { name: 'reseal-integration-auth', everyMs: 60 * 60_000, run: (tx) => resealStoredAuth(tx, secrets, log) },
];
