import type { Module } from '@leadrelay/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationKeys } from '../../lib/integrations/queries';
import { catalogueApi } from './catalogue-api';

/** Under 'integrations': the integration screens read the same catalogue and follow its changes. */
export const catalogueKeys = {
  modules: (settingId: string) => ['integrations', 'catalogue-modules', settingId] as const,
};

/** A catalogue change: every screen that shows types, categories or modules refetches. */
function useCatalogueMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }) });
}

export const useSaveCategoryMutation = () =>
  useCatalogueMutation(({ id, name }: { id?: string; name: string }) =>
    id ? catalogueApi.updateCategory(id, { name }) : catalogueApi.createCategory({ name }),
  );
export const useDeleteCategoryMutation = () => useCatalogueMutation(catalogueApi.deleteCategory);
export const useSaveSettingMutation = () =>
  useCatalogueMutation(({ id, ...body }: Parameters<typeof catalogueApi.createSetting>[0] & { id?: string }) =>
    id ? catalogueApi.updateSetting(id, body) : catalogueApi.createSetting(body),
  );
export const useDeleteSettingMutation = () => useCatalogueMutation(catalogueApi.deleteSetting);

export function useModulesQuery(settingId: string | undefined) {
  return useQuery({
    queryKey: catalogueKeys.modules(settingId ?? ''),
    queryFn: () => catalogueApi.modules(settingId as string),
    enabled: Boolean(settingId),
  });
}

export const useSaveModuleMutation = () =>
  useCatalogueMutation(
    ({ id, settingId, name, slug }: { id?: string; settingId: string; name: string; slug: string | null }) =>
      id ? catalogueApi.updateModule(id, { name, slug }) : catalogueApi.createModule({ settingId, name, slug }),
  );
export const useDeleteModuleMutation = () => useCatalogueMutation(catalogueApi.deleteModule);

/** Drag and drop: the new order shows at once and stays unless the server refuses it. */
export function useSortModulesMutation(settingId: string) {
  const qc = useQueryClient();
  const key = catalogueKeys.modules(settingId);
  return useMutation({
    mutationFn: (ordered: Module[]) => catalogueApi.sortModules(ordered.map((m) => m._id)),
    onMutate: async (ordered) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<Module[]>(key);
      qc.setQueryData(key, ordered);
      return { previous };
    },
    onError: (_err, _ordered, context) => qc.setQueryData(key, context?.previous),
    onSettled: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
