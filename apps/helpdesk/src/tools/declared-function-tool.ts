import { FunctionTool, type ToolInputParameters } from '@google/adk';
import type { FunctionDeclaration } from '@google/genai';

/**
 * A FunctionTool whose declaration (the zod parameters as a Gemini schema) is built once, not on
 * every model call: ADK's FunctionTool converts the schema each time it adds the tool to a request.
 * Each call gets its own top-level object, since @google/genai's tTool replaces a declaration's
 * `parameters` in place (with a converted copy; the shared schema itself is only read).
 */
export class DeclaredFunctionTool<P extends ToolInputParameters> extends FunctionTool<P> {
  private declaration: FunctionDeclaration | undefined;

  override _getDeclaration(): FunctionDeclaration {
    this.declaration ??= super._getDeclaration();
    return { ...this.declaration };
  }
}
