/**
 * The signed-in app (react-admin, MUI data grid, the console) is one lazy chunk, so the
 * public pages (/login, /register, /chat/:id ...) load only what they need. The sign-in page
 * starts this import while the password is checked.
 */
export const loadApp = () => import('./App');
