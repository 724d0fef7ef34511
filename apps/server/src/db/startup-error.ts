/**
 * A problem with the machine, the settings or DATA_DIR that the person starting the app can fix:
 * main.ts and the CLIs print its message as one line, never a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
