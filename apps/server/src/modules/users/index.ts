// The users module's door: what other modules may use of it (issue 29). A module imports another
// only through its index.ts (npm run lint:deps:server); what is not here is the module's own.
export { ensureOwner } from './owner.service';
export {
  apiUser,
  dateAfterDays,
  findLiveUserById,
  findLiveUserByLogin,
  insertUser,
  toApiUser,
  updateUser,
} from './users.service';
