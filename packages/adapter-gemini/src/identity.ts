/** The agent's id in the index and its badge, and its name for people. */
export const GEMINI = 'gemini';
export const GEMINI_LABEL = 'Gemini CLI';
