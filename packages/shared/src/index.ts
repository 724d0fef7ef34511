export * from './api';
export * from './constants';
export * from './currency';
export * from './errors';
export * from './password';
export * from './plural';
export * from './user';
export * from './validation';
