// What every route of the table carries (app/routes.tsx), read by the guards and the page title.
// It lives here, below app/ and components/, so reading it does not import the route table.
import type { Resources } from './i18n';

export type TitleKey = keyof Resources['pages']['titles'];
export type RoleRule = 'owner' | 'privileged';

export interface RouteHandle {
  title: TitleKey;
  active?: boolean;
  role?: RoleRule;
}
