export { geminiLocator } from './locator';
export { readChatFile, BUSY_MS } from './read-file';
export { geminiHomes, chatRoots, discoverChats, describeChat } from './discover';
export { geminiNaming } from './naming';
export { geminiRetention, geminiConfigFolderOf, systemSettingsPath } from './retention';
export { geminiSideFiles } from './side-files';
