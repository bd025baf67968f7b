import { useEffect, useState } from 'react';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length';
import equalModule from 'ajv/dist/runtime/equal';
import { fullFormats } from 'ajv-formats/dist/formats';
import type { RegisterView } from '../definitions';
import { registerValidator, wrapValidator } from './registerValidator';

type FormData = Record<string, unknown>;
type Loaded = { default: (require: (name: string) => unknown) => Record<string, never> };

const interop = <T,>(module: T | { default: T }): T => ((module as { default?: T }).default ?? module) as T;

/** The ajv runtime helpers the server-compiled code asks for by name, from this bundle. */
const RUNTIME: Record<string, unknown> = {
  'ajv/dist/runtime/ucs2length': { default: interop(ucs2lengthModule) },
  'ajv/dist/runtime/equal': { default: interop(equalModule) },
  'ajv-formats/dist/formats': { fullFormats },
};

function runtimeRequire(name: string): unknown {
  if (name in RUNTIME) return RUNTIME[name];
  throw new Error(`useFormValidator: the compiled validator needs "${name}"; add it to RUNTIME in engine/src/registers/form/useFormValidator.ts.`);
}

const loaded = new Map<string, Promise<ValidatorType<FormData>>>();

/**
 * The form's validator: the server's precompiled @rjsf/validator-ajv8 module for this exact
 * schema (the app's CSP forbids compiling in the page), or — in Storybook and jsdom, where the
 * fake API gives no `validatorUrl` — the in-page ajv validator.
 */
function loadFormValidator(view: RegisterView & { validatorUrl?: string }): Promise<ValidatorType<FormData>> {
  const url = view.validatorUrl;
  if (!url) return Promise.resolve(registerValidator);
  let promise = loaded.get(url);
  if (!promise) {
    promise = (import(/* @vite-ignore */ url) as Promise<Loaded>).then((module) =>
      wrapValidator(createPrecompiledValidator<FormData>(module.default(runtimeRequire), view.schema as RJSFSchema)),
    );
    promise.catch(() => loaded.delete(url));
    loaded.set(url, promise);
  }
  return promise;
}

export function useFormValidator(view: RegisterView & { validatorUrl?: string }): { validator: ValidatorType<FormData> | null; error: string | null } {
  const [state, setState] = useState<{ validator: ValidatorType<FormData> | null; error: string | null }>(() => ({ validator: view.validatorUrl ? null : registerValidator, error: null }));
  useEffect(() => {
    if (!view.validatorUrl) return;
    let live = true;
    loadFormValidator(view).then(
      (validator) => live && setState({ validator, error: null }),
      (error: Error) => live && setState({ validator: null, error: error.message }),
    );
    return () => {
      live = false;
    };
  }, [view]);
  return state;
}
