/** @module JSON logging through pino; every component receives a Logger, never a global one. */
import { pino } from 'pino'

/** The logging surface the code depends on (pino's, narrowed). */
export interface Logger {
  debug(obj: object, msg?: string): void
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
  child(bindings: Record<string, unknown>): Logger
}

/** A JSON logger on stdout at `level` (default: $LOG_LEVEL or info). */
export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    ...(options.name ? { name: options.name } : {}),
    // Secrets travel in these fields of Kubernetes objects and AWS calls; never print them.
    redact: {
      paths: ['*.userData', '*.UserData', '*.data', '*.stringData', '*.token'],
      censor: '[redacted]',
    },
  })
}

/** A logger that drops everything (for unit tests and tools that must stay quiet). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}
