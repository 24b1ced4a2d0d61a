export { readRolloutFile } from './read-file';
