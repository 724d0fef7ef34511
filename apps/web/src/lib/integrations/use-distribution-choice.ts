import type { Integration } from '@leadrelay/shared';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../errors';
import { useApp } from '../use-app';
import { useCollectionsQuery, useUpdateIntegrationMutation } from './queries';

/** The select's value for "no collection". */
export const NO_COLLECTION = '';

/**
 * An integration's distribution collection as a select chooses it (a source's round-robin, the people
 * a destination reaches): the account's collections, the chosen one, and a change saved at once.
 */
export function useDistributionChoice(integration: Integration) {
  const { t: tc } = useTranslation('common');
  const { message } = useApp();
  const collections = useCollectionsQuery();
  const update = useUpdateIntegrationMutation();
  const chosen = collections.data?.data.find((c) => c._id === integration.distributionId);
  const choose = async (value: string) => {
    try {
      await update.mutateAsync({
        id: integration._id,
        body: { distributionId: value === NO_COLLECTION ? null : value },
      });
      void message.success(tc('saved'));
    } catch (err) {
      void message.error(errorMessage(err));
    }
  };
  return {
    collections: collections.data?.data ?? [],
    chosen,
    choose,
    busy: collections.isPending || update.isPending,
    value: integration.distributionId ?? NO_COLLECTION,
  };
}
