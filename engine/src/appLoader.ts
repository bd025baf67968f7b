/**
 * The signed-in app (the chrome and the console; react-admin is a further chunk) is one lazy chunk, so the
 * public pages (/login, /register, /chat/:id ...) load only what they need. The sign-in page
 * starts this import while the password is checked.
 */
export const loadApp = () => import('./SignedInApp');
