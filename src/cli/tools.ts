/** @module Finding external tools (kubectl) and running them for the CLI. */
import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** The first executable `name` on $PATH, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/** Runs `file args`; resolves with stdout, rejects with stderr in the message. */
export function runTool(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => {
        if (error)
          reject(new Error(`${file} ${args.join(' ')} failed: ${err.trim() || error.message}`))
        else resolve(out)
      },
    )
  })
}
