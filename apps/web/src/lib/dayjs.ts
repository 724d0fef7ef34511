// dayjs, for antd's date and time pickers, in the page's language. The pages with a picker take
// dayjs from here, so every other page's first load goes without it (issue 17 part 8).
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/uk';
import { i18n } from './i18n';

const follow = (language: string) => void dayjs.locale(language === 'uk' ? 'uk' : 'en');
follow(i18n.language);
i18n.on('languageChanged', follow);

export { type Dayjs, dayjs };
