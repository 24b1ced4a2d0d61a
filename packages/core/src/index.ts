export * from './problem';
export * from './usage';
export * from './session';
export * from './snapshot';
export * from './plan';
export * from './format';
export * from './tokens';
export * from './palette';
