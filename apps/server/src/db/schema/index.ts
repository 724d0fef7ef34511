export * from './amocrm-backups';
export * from './catalogue';
export * from './email-tokens';
export * from './integrations';
export * from './login-failures';
export * from './routing';
export * from './sessions';
export * from './users';
