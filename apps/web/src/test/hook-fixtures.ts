import type { Hook, HookDetail } from '@leadrelay/shared';

const at = (min: number) => new Date(Date.UTC(2026, 10, 22, 10, min)).toISOString();

/** Three hooks as GET /api/hook answers: a partly delivered one, a pending retry, a filtered one. */
export function hookList(): Hook[] {
  return [
    {
      _id: '11111111-1111-4111-8111-111111111111',
      integrationId: 'src-1',
      integration: { _id: 'src-1', name: 'Site form', type: 'webhook' },
      reactions: [],
      warnings: [],
      leadId: 'lead-1',
      status: 'partial',
      reason: null,
      lead: { name: 'Olena Petrenko', phone: '+380501234567', email: 'olena@example.com', custom: {} },
      request: { method: 'POST', headers: { authorization: '[redacted]' }, body: { name: 'Olena Petrenko' } },
      deliveries: [
        {
          _id: 'd-1',
          destination: { _id: 'crm', name: 'Main CRM', type: 'http' },
          status: 'delivered',
          attempts: 1,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: at(1),
          externalId: 'ext-1',
        },
        {
          _id: 'd-2',
          destination: { _id: 'backup', name: 'Backup hook', type: 'http' },
          status: 'failed',
          attempts: 3,
          lastError: 'connect ECONNREFUSED 127.0.0.1:9',
          nextAttemptAt: null,
          deliveredAt: null,
          externalId: null,
        },
      ],
      createdAt: at(0),
      updatedAt: at(5),
    },
    {
      _id: '22222222-2222-4222-8222-222222222222',
      integrationId: 'src-1',
      integration: { _id: 'src-1', name: 'Site form', type: 'webhook' },
      reactions: [],
      warnings: [],
      leadId: 'lead-2',
      status: 'pending',
      reason: null,
      lead: { name: 'Taras', phone: '+380671234567', custom: {} },
      request: { method: 'POST', headers: {}, body: {} },
      deliveries: [
        {
          _id: 'd-3',
          destination: { _id: 'crm', name: 'Main CRM', type: 'http' },
          status: 'pending',
          attempts: 2,
          lastError: 'HTTP 503',
          nextAttemptAt: at(30),
          deliveredAt: null,
          externalId: null,
        },
      ],
      createdAt: at(-10),
      updatedAt: at(-9),
    },
    {
      _id: '33333333-3333-4333-8333-333333333333',
      integrationId: 'src-1',
      integration: { _id: 'src-1', name: 'Site form', type: 'webhook' },
      reactions: [],
      warnings: [],
      leadId: null,
      status: 'filtered',
      reason: 'FILTERED: name notEmpty',
      // A filtered event stores no lead, only the raw request.
      lead: null,
      request: { method: 'POST', headers: {}, body: { phone: '0631112233' } },
      deliveries: [],
      createdAt: at(-20),
      updatedAt: at(-20),
    },
  ];
}

/** Hooks of a held account: one held (the plan expired), one given up after the retention. */
export function heldHookList(): Hook[] {
  const [, pending] = hookList();
  const delivery = pending!.deliveries[0]!;
  return [
    {
      ...pending!,
      _id: '55555555-5555-4555-8555-555555555555',
      status: 'held',
      reason: 'plan_expired',
      lead: { name: 'Held Olha', phone: '+380671230000', custom: {} },
      deliveries: [{ ...delivery, status: 'held', attempts: 0, lastError: null, nextAttemptAt: null }],
    },
    {
      ...pending!,
      _id: '66666666-6666-4666-8666-666666666666',
      status: 'failed',
      reason: 'held_expired',
      lead: { name: 'Old Ivan', phone: '+380671230001', custom: {} },
      deliveries: [{ ...delivery, status: 'failed', attempts: 0, lastError: 'held_expired', nextAttemptAt: null }],
    },
  ];
}

/** The first hook of the list with its attempts, as GET /api/hook/:id answers. */
export function hookDetail(): HookDetail {
  const [hook] = hookList();
  const base = hook as Hook;
  const trace = (status: number, body: unknown) => ({ status, body });
  return {
    ...base,
    conversions: [],
    deliveries: [
      {
        ...base.deliveries[0]!,
        attemptsLog: [
          {
            _id: 'a-1',
            number: 1,
            outcome: 'ok',
            httpStatus: 201,
            error: null,
            request: { method: 'POST', url: 'https://crm.example.com/leads', headers: { authorization: '[redacted]' } },
            response: trace(201, { id: 'ext-1' }),
            durationMs: 84,
            startedAt: at(1),
          },
        ],
      },
      {
        ...base.deliveries[1]!,
        attemptsLog: [
          {
            _id: 'a-2',
            number: 1,
            outcome: 'retryable',
            httpStatus: 503,
            error: 'HTTP 503',
            request: null,
            response: trace(503, 'down'),
            durationMs: 40,
            startedAt: at(1),
          },
          {
            _id: 'a-3',
            number: 2,
            outcome: 'retryable',
            httpStatus: 502,
            error: 'HTTP 502',
            request: null,
            response: trace(502, 'bad gateway'),
            durationMs: 1250,
            startedAt: at(2),
          },
          {
            _id: 'a-4',
            number: 3,
            outcome: 'permanent',
            httpStatus: 422,
            error: 'USPACY_VALIDATION: title: The title field is required.',
            request: null,
            response: trace(422, 'bad'),
            durationMs: 61,
            startedAt: at(4),
          },
        ],
      },
    ],
    assignment: null,
  };
}
