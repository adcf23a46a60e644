import { FunctionTool, type ToolInputParameters } from '@google/adk';
import type { FunctionDeclaration } from '@google/genai';

/**
 * A FunctionTool whose declaration is built once. ADK 1.2.0 converts the zod parameter schema to
 * JSON Schema again on every model call (FunctionTool._getDeclaration), a few percent of the
 * service's CPU; the tools here never change, so neither does their declaration.
 */
export class DeclaredOnceTool<T extends ToolInputParameters> extends FunctionTool<T> {
  private declaration: FunctionDeclaration | undefined;

  override _getDeclaration(): FunctionDeclaration {
    this.declaration ??= super._getDeclaration();
    return this.declaration;
  }
}
