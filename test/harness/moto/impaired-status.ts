/**
 * @module moto answers every running instance's status checks with `ok` and cannot be told
 * otherwise; this rewrites its real DescribeInstanceStatus answer (through the fault proxy) so the
 * chosen instances' system or instance check reads `impaired`, in the shape EC2 documents
 * (a `reachability` detail `failed` with `impairedSince`).
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceStatusSummary.html
 */
import type { Rewrite } from './fault-proxy'

/** The rewrite that impairs `check` of `instanceIds` since `since`. */
export function impairedStatusChecks(
  instanceIds: readonly string[],
  check: 'systemStatus' | 'instanceStatus',
  since: Date,
): Rewrite {
  return {
    action: 'DescribeInstanceStatus',
    rewrite: (xml) =>
      instanceIds.reduce(
        (body, id) =>
          body.replace(
            new RegExp(
              `(<instanceId>${id}</instanceId>[\\s\\S]*?<${check}>)<details>[\\s\\S]*?</details><status>ok</status>(</${check}>)`,
            ),
            `$1<details><item><name>reachability</name><status>failed</status><impairedSince>${since.toISOString()}</impairedSince></item></details><status>impaired</status>$2`,
          ),
        xml,
      ),
  }
}
