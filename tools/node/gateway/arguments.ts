// Argument handling for tool_execute (seed 002 §4.4-§4.6), as
// src/interlingua/gateway/arguments.py does it: schemas are trust-checked when registered,
// each tool's validator (Ajv, draft 2020-12, its regexes on RE2) is compiled once on first use,
// validation failures are ARGS_INVALID, an unknown tool is HYDRATE_FAILED, a schema that failed
// ingest or cannot be evaluated is SCHEMA_INVALID. Tolerant normalization is opt-in per call.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";

import { cap } from "./redact";
import { GatewayError, shown } from "./errors";
import { isObject } from "./json";
import { type ArgRepair, normalizeArguments } from "./normalize";
import { PatternRefused, linearRegExp } from "./patterns";
import { type SchemaLimits, DEFAULT_LIMITS, checkSchemaTrust } from "./schema_trust";
import { deriveToolId } from "./tool_id";

/** At most this many validation errors are reported, each message at most this long. */
const MAX_REPORTED_ERRORS = 20;
const ERROR_MESSAGE_LIMIT = 200;

interface Tool {
  upstreamName: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, unknown> | undefined;
  problem: GatewayError | undefined;
  validator?: ValidateFunction;
}

export interface ValidatedArguments {
  args: unknown;
  arg_repairs: ArgRepair[];
}

/** The validator of one untrusted schema: `$schema` is ignored (2020-12 whatever it says, as
 * at ingest), unknown keywords and formats are annotations, every error is collected. */
function compile(schema: Record<string, unknown>): ValidateFunction {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    validateFormats: false,
    code: { regExp: linearRegExp },
  });
  const { $schema: _dialect, ...rest } = schema;
  return ajv.compile(rest);
}

export class ArgumentValidator {
  private readonly tools = new Map<string, Tool>();

  constructor(readonly limits: SchemaLimits = DEFAULT_LIMITS) {}

  register(toolId: string, upstreamName: string, inputSchema: unknown, annotations?: Record<string, unknown>): void {
    let problem: GatewayError | undefined;
    try {
      checkSchemaTrust(inputSchema, this.limits);
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      problem = error;
    }
    const schema = isObject(inputSchema) ? inputSchema : {};
    this.tools.set(toolId, { upstreamName, inputSchema: schema, annotations, problem });
  }

  /** Add a catalogued tool (a GatewayTool as JSON) under its derived id, and return the id. */
  registerTool(tool: Record<string, unknown>): string {
    const definition = (tool.definition ?? {}) as Record<string, unknown>;
    const toolId = deriveToolId(definition.name, definition.input_schema, tool.version, definition.namespace);
    const annotations = isObject(tool.annotations) ? tool.annotations : undefined;
    this.register(toolId, String(definition.name), definition.input_schema, annotations);
    return toolId;
  }

  private tool(toolId: string): Tool {
    const tool = this.tools.get(toolId);
    if (tool === undefined) throw new GatewayError("HYDRATE_FAILED", `no tool ${shown(toolId)} in the catalog`);
    if (tool.problem !== undefined) {
      throw new GatewayError("SCHEMA_INVALID", `the input schema of ${toolId} failed ingest: ${tool.problem.message}`, {
        tool_id: toolId,
        ...tool.problem.details,
      });
    }
    return tool;
  }

  private validator(toolId: string, tool: Tool): ValidateFunction {
    if (tool.validator === undefined) {
      try {
        tool.validator = compile(tool.inputSchema);
      } catch (error) {
        throw unusable(toolId, error);
      }
    }
    return tool.validator;
  }

  validate(toolId: string, args: unknown, tolerant = false): ValidatedArguments {
    const tool = this.tool(toolId);
    let repairs: ArgRepair[] = [];
    if (tolerant) ({ args, arg_repairs: repairs } = normalizeArguments(args, tool.inputSchema));
    const check = this.validator(toolId, tool);
    let errors: Array<[string, string]>;
    try {
      check(args);
      errors = (check.errors ?? []).map((e): [string, string] => [e.instancePath, cap(e.message ?? "invalid", ERROR_MESSAGE_LIMIT)]);
      errors.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
    } catch (error) {
      if (!(error instanceof RangeError)) throw unusable(toolId, error);
      errors = [["", "the arguments nest too deeply to validate"]];
    }
    if (errors.length === 0 && !isObject(args)) errors = [["", `arguments are a JSON object, not ${shown(args)}`]];
    if (errors.length > 0) {
      throw new GatewayError(
        "ARGS_INVALID",
        `arguments for ${toolId} do not match its input schema: ${errors[0][0] || "/"}: ${errors[0][1]}`,
        {
          errors: errors.slice(0, MAX_REPORTED_ERRORS).map(([path, message]) => ({ path, message })),
          arg_repairs: repairs,
        },
      );
    }
    return { args, arg_repairs: repairs };
  }

  /** What executing would do, without dispatching (§4.5); no quota here, so rate_limit is skipped. */
  dryRun(toolId: string, args: unknown, tolerant = false): Record<string, unknown> {
    this.validate(toolId, args, tolerant);
    const tool = this.tools.get(toolId)!;
    const declared = Object.fromEntries(Object.entries(tool.annotations ?? {}).filter(([, v]) => v !== null));
    return {
      dry_run: true,
      tool_id: toolId,
      upstream_name: tool.upstreamName,
      args_valid: true,
      annotations: { ...declared, verified: false },
      checks: [
        { name: "schema_validation", status: "pass" },
        { name: "rate_limit", status: "skipped" },
      ],
    };
  }
}

/** SCHEMA_INVALID for a schema that passed ingest but cannot be evaluated: a pattern RE2
 * refuses (reached only through a `$ref`), an unresolvable `$ref`, a `$ref` into data. */
function unusable(toolId: string, error: unknown): GatewayError {
  if (error instanceof PatternRefused) {
    return new GatewayError("SCHEMA_INVALID", `the input schema of ${toolId} has a pattern that cannot run: ${error.message}`, {
      tool_id: toolId,
      reason: error.reason,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new GatewayError("SCHEMA_INVALID", `the input schema of ${toolId} cannot be evaluated: ${detail}`, {
    tool_id: toolId,
    reason: "meta_invalid",
  });
}
