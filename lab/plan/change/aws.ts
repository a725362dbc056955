/**
 * Which inputs of the AWS resource types the lab creates replace the resource (`replaces`) and which
 * are known to update in place (`updates`); any other changed input is unknown. Pure data.
 *
 * Source. The issue asked for pulumi-aws's schema (`willReplaceOnChanges`) at the pinned
 * @pulumi/aws 7.48.0. That schema marks no input of these types: the SDK generated from it
 * registers no `replaceOnChanges` anywhere (`grep -rl replaceOnChanges node_modules/@pulumi/aws`
 * finds nothing, while the same code generator emits it for @pulumi/command's `triggers`). The
 * bridged provider decides a replacement at `Diff` from the Terraform schema's `ForceNew` (or the
 * plugin framework's `RequiresReplace`) of hashicorp/terraform-provider-aws, which pulumi-aws
 * wraps. So each entry names the terraform-provider-aws file whose schema it was read in; names
 * are the Pulumi inputs (camelCase of the Terraform attributes).
 */

export const AWS_SOURCE = "hashicorp/terraform-provider-aws (bridged by pulumi-aws 7.48.0; ForceNew / RequiresReplace)";

export interface AwsTypeRule {
  readonly replaces: readonly string[];
  readonly updates: readonly string[];
  /** The file of hashicorp/terraform-provider-aws the schema was read in. */
  readonly source: string;
}

export const AWS_RULES: Readonly<Record<string, AwsTypeRule>> = {};
