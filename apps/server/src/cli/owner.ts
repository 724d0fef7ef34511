// npm run owner -- --login owner@example.com --password Secret123
// Creates the owner account, or makes an existing account the owner with this password.
import { parseArgs } from 'node:util';
import { loadEnv } from '../app-modules';
import { openDatabase } from '../db/client';
import { StartupError } from '../db/startup-error';
import { OwnerInputError, parseOwnerInput, upsertOwner } from '../modules/users/owner.service';

const USAGE = 'Usage: npm run owner -- --login <e-mail> --password <password>';

async function run(): Promise<number> {
  let values: { login?: string; password?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { login: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help || !values.login || !values.password) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  try {
    const input = parseOwnerInput({ login: values.login, password: values.password });
    const env = loadEnv();
    const database = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir });
    try {
      const result = await upsertOwner(database.db, input);
      const where = env.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded PostgreSQL in ${env.dataDir}`;
      console.info(
        `${result.created ? 'Created owner' : 'Updated owner'} ${input.login} (confirmed, never expires) in ${where}.`,
      );
    } finally {
      await database.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof OwnerInputError || error instanceof StartupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

run().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
