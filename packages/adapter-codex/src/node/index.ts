export { readRolloutFile } from './read-file';
export { codexHomes, listRolloutFiles, findRolloutById, type RolloutFileRef } from './discover';
