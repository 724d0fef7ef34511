const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids are checked here, not by the route schema: a malformed id is "not found" (404), like a missing one. */
export const isUuid = (value: string): boolean => UUID.test(value);
