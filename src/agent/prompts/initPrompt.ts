import { AGENTS_FILE } from '../instructions/projectInstructions';

// What `/init` asks of the agent, in our words: an AGENTS.md for the repository, written from what the agent
// finds in it (what Codex's /init asks covers the same ground: layout, commands, style, tests, commits).

/** The prompt `/init` sends. */
export const INIT_PROMPT = `Write an ${AGENTS_FILE} at the root of this repository: the guide a coding agent (or a new contributor) reads before changing anything here. Build it from what you find, not from guesses: read the README, the package or build files, the CI configuration, the test setup and a few representative source files first.

Cover, each under its own heading and in short, concrete lines:
- what the project is, and how its folders are laid out (where the source, the tests and the generated files are);
- the commands to install, build, run, lint and test, exactly as they are run here, and how to run a single test;
- the coding style and naming the code already follows, and the formatter or linter that enforces it;
- how tests are written and where they go;
- how commits and pull requests are written here, as the history shows;
- anything that is easy to get wrong: generated files not to edit, secrets and configuration, slow or flaky steps.

Keep it short (about 200 to 400 words), in Markdown, every command in backticks. Where the repository does not say something, leave it out rather than invent it. If an ${AGENTS_FILE} already exists, improve it and keep what is still true instead of starting over. Say at the end what you wrote.`;
