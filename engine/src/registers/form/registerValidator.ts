import { customizeValidator } from '@rjsf/validator-ajv8';
import type { ErrorSchema, RJSFSchema, RJSFValidationError, ValidatorType } from '@rjsf/utils';
import { AJV_OPTIONS, compactRecord, configureAjv, fieldErrors, messageForError, normaliseRecord, type FieldError, type RegisterSchema } from '@atendimento/schemas/registers/index';

type FormData = Record<string, unknown>;

const ajv8 = customizeValidator<FormData>({
  ajvOptionsOverrides: AJV_OPTIONS,
  // Same keyword set as the server's ajv (register-validator.ts): `errorMessage` is ours.
  extenderFn: (ajv) => configureAjv(ajv),
});

/**
 * The form half of "one definition validates both sides": @rjsf/validator-ajv8 with the
 * server's ajv options, run on the record the server would validate (trimmed, normalised,
 * empty values dropped), so '+55 (11) 99999-0000' passes the phone pattern here as it does there.
 */
export function wrapValidator(base: ValidatorType<FormData>): ValidatorType<FormData> {
  return {
    validateFormData(formData, schema, customValidate, transformErrors, uiSchema) {
      const prepared = compactRecord(normaliseRecord(schema as RegisterSchema, formData ?? {}));
      return base.validateFormData(prepared, schema, customValidate, transformErrors, uiSchema);
    },
    isValid: (schema, formData, rootSchema) => base.isValid(schema, formData, rootSchema),
    rawValidation: (schema, formData) => base.rawValidation(schema, formData),
    reset: () => base.reset?.(),
  } as ValidatorType<FormData>;
}

/**
 * The validator compiling schemas in the page (ajv's `new Function`): Storybook and jsdom specs.
 * The app's CSP forbids that, so the app uses the server-compiled module (useFormValidator).
 */
export const registerValidator = wrapValidator(ajv8);

/** rjsf errors → the seed's pt-BR texts, read from `errorMessage` beside the failing keyword. */
export function translateErrors(schema: RJSFSchema) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      // if/anyOf/oneOf wrappers repeat what their inner keyword already said (as on the server).
      .filter((error) => error.name !== 'if' && error.name !== 'anyOf' && error.name !== 'oneOf')
      .map((error) => {
        const message = messageForError(schema as RegisterSchema, error);
        return { ...error, message, stack: message };
      });
}

/** The server's 400 `fields` ({ field: 'cgc.0', message }) as rjsf extraErrors on those fields. */
export function errorSchemaOf(fields: readonly FieldError[]): ErrorSchema<FormData> {
  const root: Record<string, unknown> = {};
  for (const { field, message } of fields) {
    let node = root;
    for (const segment of field.split('.').filter(Boolean)) {
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    }
    const list = (node.__errors ??= []) as string[];
    if (!list.includes(message)) list.push(message);
  }
  return root as ErrorSchema<FormData>;
}

export { fieldErrors };
