/**
 * @module Entry point of the EC2 notice source (Deployment, or a Knative ContainerSource):
 * `machine-api ec2-notices`. Polls the SQS queue EventBridge feeds and records each notice on its
 * Machine.
 */
import { ec2NoticesCommand } from '../src/cli/commands/ec2-notices'
import { runMain } from '../src/cli/process-main'
import { runCommand } from '../src/cli/run-command'

// Only this command is imported, so the bundle carries nothing the other commands need.
await runMain(import.meta.url, (io) => runCommand(ec2NoticesCommand, process.argv.slice(2), io))
