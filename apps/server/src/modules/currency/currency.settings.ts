// The currency module's environment settings (README: NBU_RATES_URL), read by env.ts.
import { z } from 'zod';
import { blankToUndefined, defineSettings } from '../../lib/env-settings';
import { NBU_USD_URL } from './nbu';

export const currencySettings = defineSettings({
  keys: {
    NBU_RATES_URL: z.preprocess(blankToUndefined, z.url().default(NBU_USD_URL)),
  },
  read: (e): { /** Where the official USD rate is taken from. */ nbuRatesUrl: string } => ({
    nbuRatesUrl: e.NBU_RATES_URL,
  }),
});
