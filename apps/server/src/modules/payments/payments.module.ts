// The payments module as the app wires it: one PaymentsDeps for its routes and its renewal tasks.
import { refreshAccountHold } from '../../delivery/queue';
import { defineModule } from '../server-module';
import { paymentTasks } from './payments.renewal';
import { paymentsRoutes } from './payments.routes';
import type { PaymentsDeps } from './payments.service';
import { paymentsSettings } from './payments.settings';
import { createPaymentProvider } from './providers';

export const paymentsModule = defineModule({
  name: 'payments',
  settings: paymentsSettings,
  setup: ({ app, deps }) => {
    const { db, config, log, events } = deps;
    const payments: PaymentsDeps = {
      db,
      secrets: deps.secrets,
      // Without PAYMENT_* keys there is none: paying answers PAYMENT_NOT_CONFIGURED.
      provider: config.payment ? createPaymentProvider(config.payment) : null,
      publicUrl: config.publicUrl,
      checkoutLifetimeMs: config.checkoutLifetimeSeconds * 1000,
      mailer: deps.mailer,
      log,
      onOrderSettled: async (order, account) => {
        // A paid order extends exp_date or changes the plan: held leads go now, not at the next check.
        if (order.status === 'paid') {
          await refreshAccountHold(db, account.id, new Date(), events).catch((error) =>
            log.error({ err: error, accountId: account.id }, 'releasing held leads after a payment failed'),
          );
        }
        app.realtime.emitToAccount(account.id, 'PAYMENT_INFORMER', { orderId: order.id, status: order.status });
      },
    };
    return {
      tasks: paymentTasks(payments),
      routes: [(child) => paymentsRoutes(child, { deps: payments, seller: config.seller })],
    };
  },
});
