export { readRolloutFile } from './read-file';
export { codexHomes, sessionRoots, rolloutsUnder, listRolloutFiles, findRolloutById, type RolloutFileRef } from './discover';
export { codexLocator } from './locator';
export { projectOf, sessionCwd } from './project';
