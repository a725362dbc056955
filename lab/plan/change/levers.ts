/**
 * One representative change of every `lab:` key of every stack kind, on a shipped stack of that
 * kind: what docs/changing-a-live-stack.md plans and tabulates (./table.ts), and what the tests
 * hold to an expected impact. A key the table cannot change on a live stack says why instead of a
 * value. Pure data.
 */

/**
 * A key's representative change: the value set with `--change` (with `also`: the other keys the
 * config rules require with it, `null` unsetting one), or why there is none.
 */
export type Lever =
  | { readonly value: string; readonly note?: string; readonly also?: Readonly<Record<string, string | null>> }
  | { readonly notChangeable: string };

export interface KindLevers {
  /** The shipped stack of the kind the changes are planned on. */
  readonly stack: string;
  /** `lab:<key>` (or `aws:region`) → its change. */
  readonly keys: Readonly<Record<string, Lever>>;
}

const KIND: Lever = { notChangeable: "a stack of another kind is another stack (`lab plan --change` refuses it)" };
const v = (value: string, note?: string, also?: Readonly<Record<string, string | null>>): Lever => ({
  value,
  ...(note === undefined ? {} : { note }),
  ...(also === undefined ? {} : { also }),
});
const UPSTREAM: Lever = {
  notChangeable: "names another upstream stack: what lives on it moves to another one (plan that as a new stack with `lab plan --config`)",
};

/** Keys every kind has (stacks/lib/config/common.ts). */
const COMMON = {
  "aws:region": { notChangeable: "every resource of a stack lives in its region: another region is another stack" },
  "lab:kind": KIND,
  "lab:owner": v("someone-else"),
  "lab:ttlHours": v("12"),
  "lab:runId": v("r2"),
};

export const LEVERS: Readonly<Record<string, KindLevers>> = {
  network: {
    stack: "network",
    keys: {
      ...COMMON,
      "lab:vpcCidr": v("10.1.0.0/16"),
      "lab:azCount": v("3"),
      "lab:azs": v('["us-east-1a","us-east-1d"]'),
      "lab:natGateways": v("single"),
      "lab:flowLogs": v("false"),
      "lab:flowLogsRetentionDays": v("30"),
      "lab:permissionsBoundaryArn": v("arn:aws:iam::123456789012:policy/lab-boundary"),
    },
  },
  "fsx-ontap": {
    stack: "fsx-eks-ontap",
    keys: {
      ...COMMON,
      "lab:networkStack": UPSTREAM,
      "lab:deploymentType": v("MULTI_AZ_2", "with throughput 384 MBps per HA pair", { "lab:throughputCapacityMBps": "384" }),
      "lab:storageCapacityGiB": v("2048"),
      "lab:throughputCapacityMBps": v("1024"),
      "lab:haPairs": v("1"),
      "lab:diskIopsMode": v("USER_PROVISIONED", "with lab:diskIops 6000", { "lab:diskIops": "6000" }),
      "lab:diskIops": v("6000", "with lab:diskIopsMode USER_PROVISIONED", { "lab:diskIopsMode": "USER_PROVISIONED" }),
      "lab:preferredAz": v("1"),
      "lab:svmName": v("othersvm"),
      "lab:volumes": v('[{"name":"data","sizeGiB":100,"junctionPath":"/data"}]'),
      "lab:kmsKeyArn": v("arn:aws:kms:us-east-1:123456789012:key/11111111-2222-3333-4444-555555555555"),
      "lab:backupRetentionDays": v("7"),
      "lab:maintenanceWindow": v("6:03:00"),
      "lab:clientSecurityGroupIds": v('["sg-0123456789abcdef0"]'),
      "lab:endpointIpAddressRange": v("198.19.254.0/24"),
      "lab:skipFinalBackup": v("false"),
      "lab:retainOnDelete": v("true"),
    },
  },
  eks: {
    stack: "fsx-eks-cluster",
    keys: {
      ...COMMON,
      "lab:networkStack": UPSTREAM,
      "lab:clusterName": v("other-cluster"),
      "lab:kubernetesVersion": v("1.36", "EKS version"),
      "lab:adminCidrs": v('["203.0.113.9/32"]'),
      "lab:adminCidrMinPrefix": v("16", "a check only: no resource reads it"),
      "lab:adminRoleArns": v('["arn:aws:iam::123456789012:role/admin"]'),
      "lab:instanceType": v("m5.2xlarge"),
      "lab:nodeCount": v("4", "worker count"),
      "lab:nodeRootVolumeGiB": v("80"),
      "lab:logRetentionDays": v("60"),
      "lab:permissionsBoundaryArn": v("arn:aws:iam::123456789012:policy/lab-boundary"),
      "lab:nodeGroups": v('[{"name":"system","instanceType":"m5.xlarge","nodeCount":3}]', "instead of lab:instanceType and lab:nodeCount", {
        "lab:instanceType": null,
        "lab:nodeCount": null,
      }),
      "lab:trident": v("false", "without lab:tridentInstall", { "lab:tridentInstall": null }),
      "lab:tridentInstall": v("addon", "with lab:tridentAddonVersion", { "lab:tridentAddonVersion": "v25.6.2-eksbuild.1" }),
      "lab:tridentAddonVersion": v("v25.6.2-eksbuild.1", "with lab:tridentInstall addon", { "lab:tridentInstall": "addon" }),
      "lab:tridentNodePrep": v('["iscsi"]'),
      "lab:images": v("[]", "fsx-eks then needs lab:toolsImage"),
    },
  },
  "fsx-eks": {
    stack: "fsx-eks",
    keys: {
      ...COMMON,
      "lab:networkStack": UPSTREAM,
      "lab:fsxOntapStack": UPSTREAM,
      "lab:eksStack": UPSTREAM,
      "lab:sanBackend": v("true"),
      "lab:reclaimPolicy": v("Retain"),
      "lab:mysqlReplicas": v("2"),
      "lab:mysqlVolumeGiB": v("100"),
      "lab:toolsImage": v("public.ecr.aws/example/tools:1.0"),
      "lab:reps": v("5", "repetitions"),
      "lab:pvcSizeGiB": v("200"),
    },
  },
  kafka: {
    stack: "kafka",
    keys: {
      ...COMMON,
      "lab:fsxOntapStack": UPSTREAM,
      "lab:eksStack": UPSTREAM,
      "lab:clusterName": v("other-kafka"),
      "lab:kafkaVersion": v("4.3.0"),
      "lab:brokers": v("2", "with replication factors 1 and 2", { "lab:replicationFactors": "[1,2]" }),
      "lab:controllers": v("1"),
      "lab:dataVolumes": v('["/kafkafsxN1","/kafkafsxN2","/kafkafsxN3"]'),
      "lab:zonePlacement": v("spread"),
      "lab:brokerVolumeGiB": v("1024"),
      "lab:controllerVolumeGiB": v("20"),
      "lab:brokerNodeGroup": {
        notChangeable: "the node groups are laid out by the eks stack (lab:nodeGroups): another one is a change of both stacks",
      },
      "lab:controllerNodeGroup": {
        notChangeable: "the node groups are laid out by the eks stack (lab:nodeGroups): another one is a change of both stacks",
      },
      "lab:brokerResources": v('{"requests":{"cpu":"6","memory":"40Gi"},"limits":{"cpu":"7","memory":"40Gi"}}'),
      "lab:brokerHeapGiB": v("8"),
      "lab:controllerResources": v('{"requests":{"cpu":"1","memory":"4Gi"},"limits":{"cpu":"2","memory":"4Gi"}}'),
      "lab:controllerHeapGiB": v("2", "with 4Gi of memory", {
        "lab:controllerResources": '{"requests":{"cpu":"1","memory":"4Gi"},"limits":{"cpu":"2","memory":"4Gi"}}',
      }),
      "lab:brokerConfig": v('{"num.network.threads":32}'),
      "lab:ombImage": v("public.ecr.aws/example/omb:1.0"),
      "lab:ombWorkers": v("2"),
      "lab:clientNodeGroup": {
        notChangeable: "the node groups are laid out by the eks stack (lab:nodeGroups): another one is a change of both stacks",
      },
      "lab:ombWorkload": v("1-topic-100-partitions-1kb"),
      "lab:testDurationMinutes": v("10"),
      "lab:ombDrivers": v('["kafka-sync"]'),
      "lab:replicationFactors": v("[3]"),
      "lab:reps": v("3", "repetitions"),
      "lab:workerResources": v('{"requests":{"cpu":"4","memory":"16Gi"},"limits":{"cpu":"6","memory":"16Gi"}}'),
      "lab:workerHeapGiB": v("5"),
      "lab:driverResources": v('{"requests":{"cpu":"1","memory":"4Gi"},"limits":{"cpu":"2","memory":"4Gi"}}'),
      "lab:driverHeapGiB": v("1"),
    },
  },
  "ceph-k0s": {
    stack: "dev",
    keys: {
      ...COMMON,
      "lab:networkStack": UPSTREAM,
      "lab:instanceType": v("m5.xlarge", "instance type (Xen → Nitro)"),
      "lab:workerCount": v("4", "worker count"),
      "lab:az": v("us-east-1b"),
      "lab:adminCidrs": v('["203.0.113.9/32"]'),
      "lab:adminCidrMinPrefix": v("16", "a check only: no resource reads it"),
      "lab:sshPublicKey": v("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyExampleKeyExampleKeyExampleKe user@host"),
      "lab:osdVolumeGiB": v("400", "grown: a smaller disk is refused (One-way keys)"),
      "lab:osdVolumeIops": v("6000"),
      "lab:osdVolumeThroughputMiBps": v("250"),
      "lab:k0sVersion": v("v1.36.4+k0s.0", "the next k0s patch"),
      "lab:cni": v("kuberouter", undefined, { "lab:wireguard": "false" }),
      "lab:wireguard": v("false"),
      "lab:cephHostNetwork": v("true"),
      "lab:hugepages2Mi": v("1024", undefined, { "lab:postgresHugepages2Mi": "64Mi" }),
      "lab:cephResources": v(
        '{"mon":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}},"mgr":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"500m","memory":"1Gi"}},"osd":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"2","memory":"4Gi"}}}',
      ),
      "lab:postgresCpu": v("1500m"),
      "lab:postgresMemory": v("6Gi"),
      "lab:postgresHugepages2Mi": v("0"),
      "lab:pgbenchForeignKeys": v("false"),
      "lab:pgbenchReportLatencies": v("false"),
      "lab:pgbenchResources": v('{"requests":{"cpu":"1","memory":"4Gi"},"limits":{"cpu":"2","memory":"4Gi"}}'),
      "lab:pgbenchScale": v("100"),
      "lab:pgbenchClients": v("40"),
      "lab:pgbenchThreads": v("4"),
      "lab:pgbenchDurationSeconds": v("600"),
      "lab:reps": v("5", "repetitions"),
    },
  },
  compare: {
    stack: "compare-ceph-nitro",
    keys: {
      ...COMMON,
      "lab:ratios": v('[{"name":"nitro/dev TPS","metric":"pgbench.tps","numerator":{"stack":"nitro"},"denominator":{"stack":"dev"}}]'),
      "lab:groupBy": v('["rep"]'),
    },
  },
};
