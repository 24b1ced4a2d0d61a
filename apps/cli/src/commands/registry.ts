import type { Command } from 'commander';
import type { CliIO } from '../io';
import { registerInspect } from './inspect';
import { registerXray } from './xray';
import { registerCost } from './cost';
import { registerIndex } from './index-command';
import { registerSessions } from './sessions';
import { registerWatch } from './watch';
import { registerUi } from './ui';
import { registerClean } from './clean';
import { registerVerify } from './verify';
import { registerShow } from './show';
import { registerUndo } from './undo';
import { registerWriteOriginal } from './write-original';
import { registerKeep } from './keep';
import { registerRestore } from './restore';
import { registerArchive } from './archive';
import { registerCompactions } from './compactions';
import { registerProxy } from './proxy';
import { registerMcp } from './mcp';
import { registerExport } from './export';

/** Each command module registers itself on the program. Add new commands here. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

export const COMMANDS: RegisterCommand[] = [registerInspect, registerXray, registerCost, registerIndex, registerSessions, registerWatch, registerUi, registerClean, registerVerify, registerShow, registerUndo, registerWriteOriginal, registerCompactions, registerExport, registerKeep, registerRestore, registerArchive, registerProxy, registerMcp];
