/**
 * The URL templates of index.json (`urls.manifest`, `urls.page`): one string per registry instead
 * of one per skill. `{name}` stands for a skill's name, which the name grammar keeps to letters,
 * digits, `-` and `_`, so filling it in can never add a `/`, a `..` or a scheme; the runtime still
 * checks every resulting path against the registry root before it reads anything.
 */
export const NAME_PLACEHOLDER = '{name}';

/** True for a template with exactly one `{name}`. */
export const isNameTemplate = (template: string): boolean => template.split(NAME_PLACEHOLDER).length === 2;

/**
 * @example
 * fillName('skills/{name}.json', 'pdf-forms'); // 'skills/pdf-forms.json'
 */
export const fillName = (template: string, name: string): string => template.replace(NAME_PLACEHOLDER, name);
