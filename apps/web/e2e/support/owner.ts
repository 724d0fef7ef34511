// The platform owner scripts/e2e-server.mjs creates at the server's first start.
export const OWNER = {
  login: process.env.E2E_OWNER_LOGIN ?? 'owner-e2e@example.com',
  password: process.env.E2E_OWNER_PASSWORD ?? 'OwnerSecret1',
};
