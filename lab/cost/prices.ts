/**
 * List prices (USD, on-demand, no free tier, no discounts) of what the lab deploys, for
 * us-east-1 (US East, N. Virginia) only. Pure data: no @pulumi imports.
 *
 * Every entry names the public source it was read in and the date that source attests the
 * figure (`asOf`). `regionStated` says whether that source names us-east-1 / US East (N. Virginia)
 * itself; where it does not, `note` says what the figure was cross-checked against. A price that
 * could not be read in a source is absent from this table (the estimate then lists the resource,
 * or the part of it, as not priced): nothing here is derived, scaled or remembered. A figure read
 * in a source that does not pin it to what it prices (no region, no deployment type) carries
 * `unconfirmed`, and every estimate that uses it says so.
 *
 * Monthly prices become hourly ones over 730 hours a month (AWS's own convention: 365 × 24 / 12).
 * Other regions are not priced differently: the estimate uses these us-east-1 figures and says so.
 */
import type { DeploymentType } from "../../components/fsx-ontap/rules";

/** The region these list prices are for. */
export const PRICE_REGION = "us-east-1";

/** Hours in a billing month, as AWS converts monthly prices (365 × 24 / 12). */
export const HOURS_PER_MONTH = 730;

export type PriceUnit =
  | "USD/hour"
  | "USD/IP-hour"
  | "USD/GB-month"
  | "USD/IOPS-month"
  | "USD/MiBps-month"
  | "USD/MBps-month"
  | "USD/key-month"
  | "USD/secret-month"
  | "USD/GB";

export interface Price {
  /** What is priced, in words. */
  readonly what: string;
  readonly unit: PriceUnit;
  readonly usd: number;
  /** Where the figure was read: URL(s) or document title. */
  readonly source: string;
  /** The date the source attests the figure (YYYY-MM-DD). */
  readonly asOf: string;
  /** Whether the source itself names us-east-1 / US East (N. Virginia) for this figure. */
  readonly regionStated: boolean;
  readonly note?: string;
  /**
   * Why the figure could not be confirmed for what it prices (region, deployment type), when it
   * could not: the estimate charges it and says so beside the line and in its notes.
   */
  readonly unconfirmed?: string;
}

/** The price per hour of one unit: hourly units as they are, monthly ones over HOURS_PER_MONTH. */
export function perHour(p: Price): number {
  if (p.unit === "USD/GB") throw new Error(`${p.what} is billed per GB sent, not per hour`);
  return p.unit === "USD/hour" || p.unit === "USD/IP-hour" ? p.usd : p.usd / HOURS_PER_MONTH;
}

const KARPENTER =
  "https://github.com/aws/karpenter-provider-aws/blob/031e72b6099630e960dacb88b48a7e9bb780945f/pkg/providers/pricing/zz_generated.pricing_aws.go " +
  '(AWS\'s generated on-demand price table, "generated at 2026-01-19T13:23:24Z for us-east-1")';
const LEANERCLOUD =
  "https://github.com/LeanerCloud/ec2-instances-info/blob/ef5638afcaa55044a865f7e8b1379341c4a3f247/generated_instances_data.txt " +
  '("Linux OD cost in us-east-1", 2023-08-30)';

function ec2(instanceType: string, usd: number): Price {
  return {
    what: `EC2 ${instanceType}, Linux, on-demand, shared tenancy`,
    unit: "USD/hour",
    usd,
    source: `${KARPENTER}; same figure in ${LEANERCLOUD}`,
    asOf: "2026-01-19",
    regionStated: true,
  };
}

/**
 * EC2 Linux on-demand prices by instance type: the types the shipped stacks plan (m4.xlarge in
 * `dev`, m5.xlarge in `nitro`, t3.micro bastions) and their immediate neighbours, all read in the
 * same two tables.
 */
export const EC2_LINUX_ON_DEMAND: Readonly<Record<string, Price>> = {
  "m4.large": ec2("m4.large", 0.1),
  "m4.xlarge": {
    ...ec2("m4.xlarge", 0.2),
    note: "also $0.20 per Hour for N. Virginia in https://github.com/Accenture/adop-doa-materials/issues/41 (2018-08-07)",
  },
  "m4.2xlarge": ec2("m4.2xlarge", 0.4),
  "m5.large": ec2("m5.large", 0.096),
  "m5.xlarge": {
    ...ec2("m5.xlarge", 0.192),
    note: "also $0.192 per Hour for N. Virginia in https://github.com/Accenture/adop-doa-materials/issues/41 (2018-08-07)",
  },
  "m5.2xlarge": ec2("m5.2xlarge", 0.384),
  // The Kafka experiment's brokers and OMB clients (Pulumi.kafka-cluster.yaml), read in the Karpenter table only.
  "i3en.2xlarge": { ...ec2("i3en.2xlarge", 0.904), source: KARPENTER },
  "c5n.2xlarge": { ...ec2("c5n.2xlarge", 0.432), source: KARPENTER },
  "t3.micro": ec2("t3.micro", 0.0104),
  "t3.small": ec2("t3.small", 0.0208),
  "t3.medium": ec2("t3.medium", 0.0416),
};

export const NAT_GATEWAY_HOUR: Price = {
  what: "NAT gateway, per gateway-hour (data processed is billed per GB on top: not estimated)",
  unit: "USD/hour",
  usd: 0.045,
  source:
    'https://rajesh.medampudi.com/blog/aws-nat-gateway-hidden-tax ("In us-east-1 (N. Virginia) and us-east-2 (Ohio) this is $0.045 per NAT Gateway-hour"); ' +
    "https://github.com/mattrobinsonsre/terrapod/pull/966 ($0.045/hr read from the AWS Price List AmazonEC2 offer, 2026-07-22)",
  asOf: "2026-07-22",
  regionStated: true,
};

export const PUBLIC_IPV4_HOUR: Price = {
  what: "public IPv4 address (Elastic IP, or an instance's auto-assigned public IP), in use or idle, per IP-hour",
  unit: "USD/IP-hour",
  usd: 0.005,
  source:
    "https://github.com/mattrobinsonsre/terrapod/issues/973 (AWS Price List AmazonVPC offer, usagetypes PublicIPv4:InUseAddress and :IdleAddress, both $0.005/hr, 2026-07-22); " +
    "https://www.besthub.dev/articles/why-aws-is-starting-to-charge-for-public-ipv4-addresses-what-it-means-for-you-da121e06e336 " +
    "($0.005 per hour for every public IPv4 address from 2024-02-01, all AWS regions)",
  asOf: "2026-07-22",
  regionStated: true,
  note: "AWS News Blog 'New – AWS Public IPv4 Address Charge + Public IP Insights' (2023-07-28) announced the charge; the 750 free-tier hours are not applied",
};

export const EBS_GP3_STORAGE_GB_MONTH: Price = {
  what: "EBS gp3 volume storage, per provisioned GB-month",
  unit: "USD/GB-month",
  usd: 0.08,
  source: 'https://github.com/infracost/infracost/issues/3090 (maintainer, 2024-06-01: "In us-east-1, EBS gp3 is $0.08/GB-month")',
  asOf: "2024-06-01",
  regionStated: true,
};

export const EBS_GP3_IOPS_MONTH: Price = {
  what: "EBS gp3 provisioned IOPS above the free 3,000, per IOPS-month",
  unit: "USD/IOPS-month",
  usd: 0.005,
  source:
    'https://github.com/infracost/infracost/issues/536 (2021-03-29, quoting https://aws.amazon.com/ebs/pricing/: "3,000 IOPS free and $0.005/provisioned IOPS-month over 3,000"); ' +
    "https://github.com/NixOS/nixops-aws/issues/131 (2021-03-08, same line)",
  asOf: "2021-03-29",
  regionStated: false,
  note: "neither source names the region; both quote the EBS pricing page whose gp3 storage line ($0.08/GB-month) is the us-east-1 figure above",
};

export const EBS_GP3_THROUGHPUT_MIBPS_MONTH: Price = {
  what: "EBS gp3 provisioned throughput above the free 125 MiB/s, per MiB/s-month",
  unit: "USD/MiBps-month",
  usd: 0.04,
  source:
    'https://www.saisci.com/aws/gp3-throughput-explained/ ("$0.04/provisioned MiB/s-month over 125 MiB/s", "price is based on N. Virginia", 2021-01-13); ' +
    "https://github.com/infracost/infracost/issues/536 (2021-03-29, same figure from https://aws.amazon.com/ebs/pricing/)",
  asOf: "2021-03-29",
  regionStated: true,
};

export interface FsxOntapPrices {
  /** SSD storage, per provisioned GB-month. */
  readonly ssdGbMonth?: Price;
  /** Provisioned SSD IOPS above the included ones (components/fsx-ontap/rules.ts `AUTOMATIC_IOPS_PER_GIB` per GB), per IOPS-month. */
  readonly ssdIopsMonth?: Price;
  /** Throughput capacity, per MBps-month (of the file system's total throughput capacity). */
  readonly throughputMbpsMonth?: Price;
}

const FSX_ONTAP_POST =
  "https://github.com/nkalra0123/hashnode-backups/blob/874c7a91c774a7ca22d7cac0a936e7d16809c49e/cl2wz4bv6069yu5nv3xxf0oaq.md " +
  "(blog post 'Replacing EFS with Amazon FSx for NetApp ONTAP to reduce storage costs', table 'Multi AZ', citing https://aws.amazon.com/fsx/netapp-ontap/pricing/; backup synced 2023-02-19)";
const FSX_ONTAP_REGION_NOTE =
  "the post does not name its region; the same Multi-AZ figures ($0.250 per GB-month, $1.20 per MBps-month) appear in an FSx for ONTAP cost-optimization guide we read " +
  "next to a Price List query for us-east-1, and they are not the figures of the one other region we found published (ap-northeast-1: $0.30 and $1.511)";

/**
 * Provisioned SSD IOPS above the included 3 per GB (the FSx for ONTAP User Guide, "File system
 * storage capacity and IOPS": "For each GiB of SSD storage that you provision, Amazon FSx
 * automatically provisions 3 SSD input/output operations per second (IOPS) … You have the option to
 * specify a level of provisioned SSD IOPS above the automatic 3 SSD IOPS per GiB", billed per
 * IOPS-month above the included rate, https://aws.amazon.com/fsx/netapp-ontap/pricing/). The one
 * figure found names neither region nor deployment type: charged, flagged unconfirmed. (This file
 * owns every FSx SSD IOPS price, issue #31.)
 */
const FSX_ONTAP_SSD_IOPS_UNCONFIRMED: Price = {
  what: "FSx for ONTAP provisioned SSD IOPS above the included 3 per GB, per IOPS-month",
  unit: "USD/IOPS-month",
  usd: 0.017,
  source:
    "https://aws.amazon.com/fsx/netapp-ontap/pricing/ as quoted in a public study note comparing EBS, FSx and EFS IOPS costs " +
    '(stored search index, file 67209039150: "FSx for NetApp ONTAP … additional IOPS $0.017 per IOPS-month"; its EBS lines are the us-east-1 figures, gp3 $0.005/IOPS-month above 3,000, io2 $0.065)',
  asOf: "2026-12-01",
  regionStated: false,
  note: "asOf is the date the quote was read: the note carries no date of its own",
  unconfirmed:
    "the source names neither the region nor the deployment type; a Price List read for eu-west-1 gives Multi-AZ SSD IOPS $0.0374/IOPS-month, so the first-generation Multi-AZ us-east-1 price may be higher than this figure: treat the line as a lower bound",
};

/**
 * FSx for NetApp ONTAP, by deployment type (every one of components/fsx-ontap/rules.ts
 * `DEPLOYMENT_TYPES`, the type checker makes sure). Only first-generation Multi-AZ storage and
 * throughput could be read with a citable source; its SSD IOPS price is unconfirmed (above);
 * Single-AZ and second-generation prices are absent, and the estimate reports those parts as not
 * priced.
 */
export const FSX_ONTAP: Readonly<Record<DeploymentType, FsxOntapPrices>> = {
  MULTI_AZ_1: {
    ssdGbMonth: {
      what: "FSx for ONTAP first-generation Multi-AZ SSD storage, per GB-month",
      unit: "USD/GB-month",
      usd: 0.25,
      source: FSX_ONTAP_POST,
      asOf: "2023-02-19",
      regionStated: false,
      note: FSX_ONTAP_REGION_NOTE,
    },
    ssdIopsMonth: FSX_ONTAP_SSD_IOPS_UNCONFIRMED,
    throughputMbpsMonth: {
      what: "FSx for ONTAP first-generation Multi-AZ throughput capacity, per MBps-month",
      unit: "USD/MBps-month",
      usd: 1.2,
      source: FSX_ONTAP_POST,
      asOf: "2023-02-19",
      regionStated: false,
      note: FSX_ONTAP_REGION_NOTE,
    },
  },
  SINGLE_AZ_1: {},
  MULTI_AZ_2: {},
  SINGLE_AZ_2: {},
};

export const KMS_KEY_MONTH: Price = {
  what: "KMS customer-managed key, per key-month (requests billed on top: not estimated; each automatic rotation adds $1/month for the first two)",
  unit: "USD/key-month",
  usd: 1,
  source:
    "https://github.com/mattrobinsonsre/terrapod/issues/987 (flat $1/month per customer-managed key, AWS Price List, 2026-07-22); " +
    "https://github.com/infracost/infracost/pull/255 (CMK 1.0000 per month, 2020-12-04)",
  asOf: "2026-07-22",
  regionStated: false,
  note: "terrapod's pricegen reads the us-east-1 offer files (pricegen/README.md); the issue itself does not name the region",
};

export const SECRETS_MANAGER_SECRET_MONTH: Price = {
  what: "Secrets Manager secret, per secret-month (API calls billed on top: not estimated)",
  unit: "USD/secret-month",
  usd: 0.4,
  source:
    "https://github.com/mattrobinsonsre/terrapod/issues/987 (flat $0.40/month per secret, AWS Price List, 2026-07-22); " +
    "https://github.com/infracost/infracost/pull/366 (Secret 0.4000 per month, 2021-01-26)",
  asOf: "2026-07-22",
  regionStated: false,
  note: "terrapod's pricegen reads the us-east-1 offer files (pricegen/README.md); the issue itself does not name the region",
};

export const EKS_CLUSTER_HOUR: Price = {
  what: "EKS cluster in standard support, per cluster-hour (extended support, $0.60/hour, is not modelled)",
  unit: "USD/hour",
  usd: 0.1,
  source:
    'https://github.com/infracost/infracost/pull/2935 (2024-03-08: extended support "$0.6 per hour per cluster and replaces old management cost of $0.1"); ' +
    'https://github.com/aws/karpenter-provider-aws/issues/4983 (2023-10-31: official doc says "$0.10 per hour")',
  asOf: "2024-03-08",
  regionStated: false,
  note: "the AWS Price List shows the same $0.10 for eu-west-1 (https://github.com/kubernetes-sigs/cluster-api-provider-aws/issues/3649, 2022-10-07)",
};

/**
 * Data crossing an Availability Zone boundary within a region, per GB in each direction: a GB sent
 * from one zone to another is billed twice (out of one zone, into the other), $0.02 in all. Usage:
 * never an hourly line; lab/cost/cross-zone.ts names it where a plan chooses cross-zone traffic.
 */
export const CROSS_AZ_TRANSFER_GB: Price = {
  what: "EC2 data transfer between Availability Zones of one region, per GB in each direction",
  unit: "USD/GB",
  usd: 0.01,
  source:
    'https://yukisawa.com/2020-01-18-aws-cross-az-costs-double-charge (2020-01-18: AWS\'s page says data "is charged at $0.01/GB each direction"; 10 GB sent from us-west-2a to us-west-2b was billed as 20 GB, confirmed by AWS Support); ' +
    "https://www.lastweekinaws.com/blog/aws-cross-az-data-transfer-costs-more-than-aws-says/ (2019-10-21, the same measurement)",
  asOf: "2020-01-18",
  regionStated: false,
  note: "measured in us-west-2; AWS's EC2 on-demand pricing page states one figure for every region (Data Transfer within the same AWS Region)",
};

/** Every price in the table, for listing and auditing. */
export function allPrices(): Price[] {
  const fsx = Object.values(FSX_ONTAP).flatMap((p) => [p.ssdGbMonth, p.ssdIopsMonth, p.throughputMbpsMonth]);
  return [
    ...Object.values(EC2_LINUX_ON_DEMAND),
    NAT_GATEWAY_HOUR,
    PUBLIC_IPV4_HOUR,
    EBS_GP3_STORAGE_GB_MONTH,
    EBS_GP3_IOPS_MONTH,
    EBS_GP3_THROUGHPUT_MIBPS_MONTH,
    ...fsx.filter((p): p is Price => p !== undefined),
    KMS_KEY_MONTH,
    SECRETS_MANAGER_SECRET_MONTH,
    EKS_CLUSTER_HOUR,
    CROSS_AZ_TRANSFER_GB,
  ];
}
