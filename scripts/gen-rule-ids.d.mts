export function ruleIdsSource(yamlText: string): string;
