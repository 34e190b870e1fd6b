export function compileContracts(
  sources: Record<string, string>,
): Record<string, { abi: unknown[]; bytecode: string; deployedBytecode: string }>
