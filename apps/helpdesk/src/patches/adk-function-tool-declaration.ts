/**
 * @google/adk@1.2.0 · `FunctionTool._getDeclaration`: the declaration is built once per tool.
 * Why: ADK converts the zod parameter schema to JSON Schema again on every model call, a few
 * percent of the service's CPU; the tools here never change, so neither does their declaration.
 * Guarded by: test/model-calls.test.ts ("the declaration is built once and never altered").
 */
import { FunctionTool, type ToolInputParameters } from '@google/adk';
import type { FunctionDeclaration } from '@google/genai';

export class DeclaredOnceTool<T extends ToolInputParameters> extends FunctionTool<T> {
  private declaration: FunctionDeclaration | undefined;

  override _getDeclaration(): FunctionDeclaration {
    this.declaration ??= super._getDeclaration();
    return this.declaration;
  }
}
