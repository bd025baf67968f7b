import type { RegisterHooks } from '../register-hooks';

/** Fixed messages remember who wrote them (uid is the owner; displayName is shown in the list). */
export function fixedMessagesHooks(): RegisterHooks {
  return {
    async beforeWrite(ctx, next, previous) {
      if (!previous) next.displayName = ctx.user.displayName;
    },
  };
}
