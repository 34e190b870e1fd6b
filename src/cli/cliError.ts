/**
 * A failure the user can act on (port in use, unusable state file): printed as one line, no stack,
 * and the process exits with `exitCode`.
 */
export class CliError extends Error {
  override name = 'CliError'

  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message)
  }
}
